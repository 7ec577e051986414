import { describe, expect, it } from "vitest";
import { createTestRegistry } from "../../test/registry";
import { FlowDefinition } from "@switchyard/contracts/flow";
import { runFlow } from "./run-flow";

const flow = FlowDefinition.parse({
  nodes: [
    { id: "t", type: "test.trigger" },
    { id: "fetch", type: "test.set", typeVersion: 2, config: { values: { fetched: true } } },
    {
      id: "after",
      type: "test.set",
      typeVersion: 2,
      config: { values: { seen: "={{ nodes.fetch.item.pinnedValue }}" } },
    },
  ],
  edges: [
    { from: { node: "t" }, to: { node: "fetch" } },
    { from: { node: "fetch" }, to: { node: "after" } },
  ],
  pinData: { fetch: [{ json: { pinnedValue: 7 } }, { json: { pinnedValue: 8 } }] },
});
const run = { id: "r1", flowId: "f1", startedAt: "2029-06-01T00:00:00.000Z", channel: "manual" as const };

describe("pinned data", () => {
  it("answers a pinned node with its pinned items without executing it, and downstream sees them", async () => {
    const registry = createTestRegistry();
    const result = await runFlow({ flow, registry, run, trigger: { x: 1 }, usePinData: true });
    expect(result.status).toBe("succeeded");
    expect(registry.calls.get("fetch")).toBeUndefined();
    expect(registry.calls.get("after")).toBe(2);
    const fetch = result.steps.find((s) => s.nodeId === "fetch")!;
    expect(fetch).toMatchObject({
      status: "succeeded",
      reason: "pinned",
      outputs: { main: flow.pinData!.fetch },
    });
    expect(result.output.map((i) => i.json)).toEqual([
      { pinnedValue: 7, seen: 7 },
      { pinnedValue: 8, seen: 7 },
    ]);
  });

  it("executes the node and ignores its pin when the run does not ask for pinned data", async () => {
    const registry = createTestRegistry();
    const result = await runFlow({ flow, registry, run, trigger: { x: 1 } });
    expect(result.status).toBe("succeeded");
    expect(registry.calls.get("fetch")).toBe(1);
    expect(result.steps.find((s) => s.nodeId === "fetch")?.reason).toBeUndefined();
    expect(result.output.map((i) => i.json)).toEqual([{ x: 1, fetched: true, seen: undefined }]);
  });

  it("replaces the trigger's payload with the trigger's pinned items", async () => {
    const registry = createTestRegistry();
    const pinnedTrigger = { ...flow, pinData: { t: [{ json: { x: 42 } }] } };
    const result = await runFlow({ flow: pinnedTrigger, registry, run, trigger: { x: 1 }, usePinData: true });
    expect(result.steps[0]).toMatchObject({
      nodeId: "t",
      reason: "pinned",
      outputs: { main: [{ json: { x: 42 } }] },
    });
    expect(result.output[0]?.json).toMatchObject({ x: 42, fetched: true });
  });

  it("keeps pinned data through parsing a flow file", () => {
    const parsed = FlowDefinition.parse(JSON.parse(JSON.stringify(flow)));
    expect(parsed.pinData).toEqual(flow.pinData);
    expect(FlowDefinition.safeParse({ nodes: [], pinData: { a: [{ nojson: 1 }] } }).success).toBe(false);
  });
});
