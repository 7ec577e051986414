import { createExpressionEvaluator, type ExpressionEvaluator } from "@switchyard/engine";
import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { transformNode } from "./transform";
import { executeNode } from "../__tests__/execute-node";

/** Stands in for JSONata: a table of sources → functions of the scope; records calls. */
function evaluator(table: Record<string, (scope: Record<string, unknown>) => unknown>) {
  const calls: { source: string; scope: Record<string, unknown> }[] = [];
  const ev: ExpressionEvaluator = {
    evaluate: async (source, scope) => {
      calls.push({ source, scope });
      const fn = table[source];
      if (!fn) throw new Error(`Syntax error at position 3`);
      return fn(scope);
    },
  };
  return { ev, calls };
}

const run = (expression: string, ev: ExpressionEvaluator) =>
  executeNode(transformNode, {
    config: { expression } as never,
    input: items({ n: 1 }, { n: 5 }),
    ctx: fakeCtx({ expressions: ev }),
  });

describe("data.transform", () => {
  it("evaluates over the items' JSON and turns an array result into items", async () => {
    const { ev, calls } = evaluator({
      "items[n > 2]": (s) => (s.items as { n: number }[]).filter((i) => i.n > 2),
    });
    expect(await run("items[n > 2]", ev)).toEqual({ items: [{ json: { n: 5 } }] });
    expect(calls).toEqual([{ source: "items[n > 2]", scope: { items: [{ n: 1 }, { n: 5 }] } }]);
  });

  it("turns an object result into one item and nothing into no items", async () => {
    const { ev } = evaluator({ sum: () => ({ total: 6 }), none: () => undefined });
    expect(await run("sum", ev)).toEqual({ items: [{ json: { total: 6 } }] });
    expect(await run("none", ev)).toEqual({ items: [] });
  });

  it("fails with expression_failed when the expression does", async () => {
    const { ev } = evaluator({});
    const err = await run("items[", ev).catch((e) => e);
    expect(err).toMatchObject({
      code: "expression_failed",
      message: "expression failed: Syntax error at position 3",
      retryable: false,
    });
  });

  it("names the node and the field when the expression passes a bound of the evaluator", async () => {
    const ev = createExpressionEvaluator({ maxStringLength: 1000 });
    const err = await executeNode(transformNode, {
      config: { expression: '$pad("", 5000, "x")' } as never,
      input: items({ n: 1 }),
      ctx: fakeCtx({ expressions: ev, nodeId: "shape" }),
    }).catch((e) => e);
    expect(err).toMatchObject({
      code: "expression_limit",
      nodeId: "shape",
      field: "expression",
      retryable: false,
    });
    expect(err.message).toMatch(/^node "shape" field "expression": /);
  });

  it("fails with expression_failed on a result that is not objects", async () => {
    const { ev } = evaluator({ "items.n": () => [1, 5] });
    const err = await run("items.n", ev).catch((e) => e);
    expect(err).toMatchObject({
      code: "expression_failed",
      message: "the expression must return an object or an array of objects; element 0 is a number",
    });
  });
});
