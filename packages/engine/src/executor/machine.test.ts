import { describe, expect, it } from "vitest";
import { createTestRegistry } from "../../test/registry";
import { compileGraph } from "../flow/graph";
import { FlowDefinition } from "@switchyard/contracts/flow";
import { createRunState, step } from "./machine";
import type { Effect } from "./types";

const registry = createTestRegistry();
const graphOf = (nodes: object[], edges: [string, string, string?][], settings?: object) =>
  compileGraph(
    FlowDefinition.parse({
      nodes: nodes.map((n) => ({ typeVersion: 1, config: {}, ...n })),
      edges: edges.map(([a, b, port]) => ({
        from: { node: a, port: port ?? "main" },
        to: { node: b, port: "main" },
      })),
      ...(settings ? { settings } : {}),
    }),
    registry,
  );
const kinds = (effects: Effect[]) =>
  effects.map((e) => {
    const id = e.type === "record" ? e.step.nodeId : "nodeId" in e ? e.nodeId : undefined;
    return id ? `${e.type}:${id}` : e.type;
  });
const trigger = { id: "t", type: "test.trigger" };
const slow = (id: string, extra: object = {}) => ({ id, type: "test.slow", config: { ms: 1 }, ...extra });

describe("executor state machine", () => {
  it("records the trigger and executes its successors up to the concurrency limit", () => {
    const g = graphOf(
      [trigger, slow("a"), slow("b"), slow("c")],
      [
        ["t", "a"],
        ["t", "b"],
        ["t", "c"],
      ],
      {
        concurrency: 2,
      },
    );
    const state = createRunState(g);
    const { effects } = step(g, state, { type: "start", triggerItems: [{ json: { x: 1 } }] });
    expect(kinds(effects)).toEqual(["record:t", "execute:a", "execute:b"]);
    expect(state.ready).toEqual(["c"]);
    const next = step(g, state, { type: "nodeSucceeded", nodeId: "a", visit: 1, outputs: { main: [] } });
    expect(kinds(next.effects)).toEqual(["record:a", "execute:c"]);
  });

  it("schedules a retry at the backoff time computed from the event's clock and random number", () => {
    const retry = { maxAttempts: 3, backoff: "exponential", delayMs: 100, jitter: 0.5 };
    const g = graphOf([trigger, slow("a", { retry })], [["t", "a"]]);
    const state = createRunState(g);
    step(g, state, { type: "start", triggerItems: [{ json: {} }] });
    const error = { code: "http_failed" as const, message: "503", retryable: true };
    const first = step(g, state, { type: "nodeFailed", nodeId: "a", visit: 1, error, at: 0, rand: 1 });
    expect(first.effects).toEqual([
      expect.objectContaining({
        type: "record",
        step: expect.objectContaining({ status: "failed", retryAt: "1970-01-01T00:00:00.150Z" }),
      }),
      { type: "scheduleRetry", nodeId: "a", visit: 1, attempt: 2, at: "1970-01-01T00:00:00.150Z" },
    ]);
    expect(kinds(step(g, state, { type: "timerFired", nodeId: "a", visit: 1 }).effects)).toEqual([
      "execute:a",
    ]);
    const second = step(g, state, { type: "nodeFailed", nodeId: "a", visit: 1, error, at: 1000, rand: 0 });
    expect(second.effects[1]).toEqual({
      type: "scheduleRetry",
      nodeId: "a",
      visit: 1,
      attempt: 3,
      at: "1970-01-01T00:00:01.200Z",
    });
  });

  it("does not retry a non-retryable error and fails the run", () => {
    const g = graphOf([trigger, slow("a", { retry: { maxAttempts: 3, delayMs: 1 } })], [["t", "a"]]);
    const state = createRunState(g);
    step(g, state, { type: "start", triggerItems: [{ json: {} }] });
    const error = { code: "input_invalid" as const, message: "bad", retryable: false };
    const { effects } = step(g, state, { type: "nodeFailed", nodeId: "a", visit: 1, error, at: 0, rand: 0 });
    expect(kinds(effects)).toEqual(["record:a", "finish"]);
    expect(effects[1]).toEqual({ type: "finish", status: "failed", error: { ...error, nodeId: "a" } });
  });

  it("aborts nodes in flight on cancel and ignores their late results", () => {
    const g = graphOf(
      [trigger, slow("a"), slow("b")],
      [
        ["t", "a"],
        ["t", "b"],
      ],
    );
    const state = createRunState(g);
    step(g, state, { type: "start", triggerItems: [{ json: {} }] });
    const { effects } = step(g, state, { type: "cancel" });
    expect(kinds(effects)).toEqual(["abort:a", "record:a", "abort:b", "record:b", "finish"]);
    expect(state.status).toBe("cancelled");
    expect(step(g, state, { type: "nodeSucceeded", nodeId: "a", visit: 1, outputs: {} }).effects).toEqual([]);
  });

  it("parks a node with a future wait and finishes the slice as waiting", () => {
    const g = graphOf(
      [trigger, slow("a"), slow("b")],
      [
        ["t", "a"],
        ["a", "b"],
      ],
    );
    const state = createRunState(g);
    step(g, state, { type: "start", triggerItems: [{ json: {} }] });
    const until = "2030-01-01T00:00:00.000Z";
    const { effects } = step(g, state, {
      type: "nodeWaiting",
      nodeId: "a",
      visit: 1,
      until,
      outputs: { main: [{ json: {} }] },
      at: 0,
    });
    expect(kinds(effects)).toEqual(["record:a", "wait:a", "finish"]);
    expect(effects[2]).toEqual({ type: "finish", status: "waiting", resumeAt: until });
  });

  it("treats a wait that already ended as success", () => {
    const g = graphOf(
      [trigger, slow("a"), slow("b")],
      [
        ["t", "a"],
        ["a", "b"],
      ],
    );
    const state = createRunState(g);
    step(g, state, { type: "start", triggerItems: [{ json: {} }] });
    const until = "1970-01-01T00:00:00.000Z";
    const { effects } = step(g, state, {
      type: "nodeWaiting",
      nodeId: "a",
      visit: 1,
      until,
      outputs: { main: [{ json: {} }] },
      at: 5,
    });
    expect(kinds(effects)).toEqual(["record:a", "execute:b"]);
  });

  it("gives each extra branch fed by one port its own copy of the items", () => {
    const g = graphOf(
      [trigger, slow("a"), slow("b")],
      [
        ["t", "a"],
        ["t", "b"],
      ],
    );
    const state = createRunState(g);
    const items = [{ json: { x: 1 } }];
    const { effects } = step(g, state, { type: "start", triggerItems: items });
    const inputs = effects.flatMap((e) => (e.type === "execute" ? [e.input] : []));
    expect(inputs[0]![0]).toBe(items[0]);
    expect(inputs[1]).toEqual(items);
    expect(inputs[1]![0]).not.toBe(items[0]);
  });
});
