import type { Item, SubflowCaller } from "@switchyard/engine";
import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { callNode } from "./call";
import { executeNode } from "../__tests__/execute-node";

function caller() {
  const calls: { flowId: string; items: Item[]; depth: unknown }[] = [];
  const flows: SubflowCaller = {
    call: async (flowId, input, opts) => {
      calls.push({ flowId, items: input, depth: (opts as { depth?: number }).depth });
      return input.map((i) => ({ json: { ...i.json, enriched: true } }));
    },
  };
  return { flows, calls };
}

describe("flow.call", () => {
  it("runs the sub-flow with the items and outputs its result, one level deeper", async () => {
    const { flows, calls } = caller();
    const out = await executeNode(callNode, {
      config: { flowId: "f2" } as never,
      input: items({ a: 1 }),
      ctx: fakeCtx({ flows }),
    });
    expect(out).toEqual({ items: [{ json: { a: 1, enriched: true } }] });
    expect(calls).toEqual([{ flowId: "f2", items: items({ a: 1 }), depth: 1 }]);
  });

  it("refuses to go deeper than maxDepth", async () => {
    const { flows, calls } = caller();
    const ctx = { ...fakeCtx({ flows }), callDepth: 3 };
    const err = await executeNode(callNode, { config: { flowId: "f2", maxDepth: 3 }, input: [], ctx }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({
      code: "policy_denied",
      message: 'sub-flow depth limit 3 reached calling "f2"',
      retryable: false,
    });
    expect(calls).toEqual([]);
  });

  it("fails with not_configured without a sub-flow caller", async () => {
    const err = await executeNode(callNode, { config: { flowId: "f2" }, input: [], ctx: fakeCtx() }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({
      code: "not_configured",
      message: "Sub-flow calls is not available to this node",
    });
  });
});
