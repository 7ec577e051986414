/**
 * The nodes through the engine's own node runner: config expressions resolved by the real JSONata
 * evaluator, per-item runs, and error codes kept by the engine's normalisation.
 */
import { createExpressionEvaluator, FlowNode, type NodeDefinition, runNode } from "@switchyard/engine";
import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "./__tests__/fake-ctx";
import { codeNode } from "./code/code";
import { transformNode } from "./data/transform";
import { stopNode } from "./flow/stop";
import { ifNode } from "./logic/if";

const evaluator = createExpressionEvaluator();
const run = (
  def: NodeDefinition,
  config: Record<string, unknown>,
  input = items({ total: 50 }, { total: 150 }),
) =>
  runNode({
    node: FlowNode.parse({ id: "n1", type: def.type, config }),
    def,
    input,
    ctx: fakeCtx({ expressions: evaluator }),
    evaluator,
    scope: { trigger: undefined, nodes: () => ({}), run: fakeCtx().run },
  });

describe("nodes inside the engine's runner", () => {
  it("logic.if routes each item by its own resolved condition", async () => {
    expect(await run(ifNode as NodeDefinition, { condition: "=item.total > 100" })).toEqual({
      kind: "ok",
      outputs: { false: items({ total: 50 }), true: items({ total: 150 }) },
    });
  });

  it("data.transform evaluates its JSONata with the real evaluator", async () => {
    expect(
      await run(transformNode as NodeDefinition, { expression: "items[total > 100].{ 'big': total }" }),
    ).toEqual({
      kind: "ok",
      outputs: { main: items({ big: 150 }) },
    });
  });

  it("passes code containing {{ }} to the code node untouched instead of evaluating it", async () => {
    const code = "return items.map((i) => ({ tpl: '{{ item.total }}', total: i.total }));";
    expect(await run(codeNode as NodeDefinition, { code }, items({ total: 7 }))).toEqual({
      kind: "ok",
      outputs: { main: items({ tpl: "{{ item.total }}", total: 7 }) },
    });
  });

  it("keeps a node's error code through the engine's normalisation", async () => {
    const out = await run(stopNode as NodeDefinition, { outcome: "error", message: "no customer" });
    expect(out).toMatchObject({
      kind: "error",
      error: { code: "input_invalid", message: "no customer", retryable: false },
    });
  });
});
