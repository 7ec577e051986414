import { FlowDefinition } from "@switchyard/contracts/flow";
import { describe, expect, it } from "vitest";
import { toDefinition, toDoc } from "./doc-ops";

describe("toDoc", () => {
  it("fills the defaults of the contracts' flow schema, the same the engine parses with", () => {
    const stored = {
      nodes: [{ id: "t", type: "trigger.manual" }],
      edges: [{ from: { node: "t" }, to: { node: "x" } }],
    };
    expect(toDoc(stored)).toEqual(FlowDefinition.parse(stored));
    expect(toDoc({}).settings).toEqual({ timezone: "UTC", maxRunMs: 300_000, concurrency: 4 });
  });

  it("keeps every field the flow model has, retry jitter included", () => {
    const retry = { maxAttempts: 3, backoff: "exponential", delayMs: 500, maxDelayMs: 4000, jitter: 0.2 };
    const doc = toDoc({ nodes: [{ id: "h", type: "http.request", retry }] });
    expect(doc.nodes[0]?.retry).toEqual(retry);
    expect(toDefinition(doc).nodes[0]?.retry).toEqual(retry);
  });

  it("opens a stored flow the schema refuses, keeping the refused fields for the problem list", () => {
    const doc = toDoc({
      nodes: [{ id: "a", type: "x", onError: "explode", retry: { maxAttempts: 0, delayMs: 1 } }],
      settings: { timezone: "" },
    });
    expect(doc.nodes[0]).toEqual({
      id: "a",
      type: "x",
      typeVersion: 1,
      name: "",
      config: {},
      position: { x: 0, y: 0 },
      onError: "explode",
      retry: { maxAttempts: 0, delayMs: 1 },
    });
    expect(doc.settings).toEqual({ timezone: "", maxRunMs: 300_000, concurrency: 4 });
    expect(doc.edges).toEqual([]);
  });

  it("leaves pinData out when nothing is pinned", () => {
    expect("pinData" in toDoc({ nodes: [], pinData: {} })).toBe(false);
    expect(toDoc({ nodes: [], pinData: { a: [{ json: { v: 1 } }] } }).pinData).toEqual({
      a: [{ json: { v: 1 } }],
    });
  });
});
