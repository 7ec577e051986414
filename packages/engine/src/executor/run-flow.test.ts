import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createTestRegistry, type TestRegistry } from "../../test/registry";
import type { NodeDefinition, NodeRegistry } from "../contract";
import { FlowDefinition } from "@switchyard/contracts/flow";
import { type RunFlowOptions, type RunProgressEvent, runFlow } from "./run-flow";
import { InMemoryStepStore } from "./step-store";
import type { StepRecord } from "./types";

const run = (id = "r1") => ({
  id,
  flowId: "f1",
  startedAt: "2029-06-01T00:00:00.000Z",
  channel: "manual" as const,
});
const flowOf = (nodes: object[], edges: [string, string, string?][], settings: object = {}) =>
  FlowDefinition.parse({
    nodes: [{ id: "t", type: "test.trigger" }, ...nodes].map((n) => ({
      typeVersion: (n as { type: string }).type === "test.set" ? 2 : 1,
      config: {},
      ...n,
    })),
    edges: edges.map(([a, b, port]) => ({
      from: { node: a, port: port ?? "main" },
      to: { node: b, port: "main" },
    })),
    settings: { timezone: "UTC", maxRunMs: 10_000, concurrency: 4, ...settings },
  });
const set = (id: string, values: object = {}) => ({ id, type: "test.set", config: { values } });
const statuses = (steps: StepRecord[]) => Object.fromEntries(steps.map((s) => [s.stepId, s.status]));

function exec(registry: NodeRegistry, opts: Partial<RunFlowOptions> & Pick<RunFlowOptions, "flow">) {
  return runFlow({ registry, run: run(), trigger: { x: 1 }, ...opts });
}

describe("runFlow", () => {
  it("refuses an invalid flow before running anything", async () => {
    const registry = createTestRegistry();
    const store = new InMemoryStepStore();
    const flow = flowOf(
      [set("a")],
      [
        ["t", "a"],
        ["a", "ghost"],
      ],
    );
    const result = await exec(registry, { flow, stepStore: store });
    expect(result).toEqual({
      runId: "r1",
      status: "failed",
      steps: [],
      output: [],
      error: { code: "flow_invalid", message: 'edge target node "ghost" does not exist', retryable: false },
    });
    expect(store.all("r1")).toEqual([]);
  });

  it("names the node whose output was too deeply nested to checkpoint", async () => {
    const registry = createTestRegistry();
    const store = new InMemoryStepStore();
    const stringifying = {
      load: store.load.bind(store),
      save: async (rec: StepRecord) => store.save(JSON.parse(JSON.stringify(rec))),
    };
    const flow = flowOf([{ id: "d", type: "test.deep", config: { levels: 20_000 } }], [["t", "d"]]);
    const err = await exec(registry, { flow, stepStore: stringifying }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "limit_exceeded", nodeId: "d" });
    expect((err as Error).message).toBe(
      'node "d" produced a value too deeply nested to store: Maximum call stack size exceeded',
    );
  });

  it("runs parallel branches no wider than settings.concurrency", async () => {
    for (const concurrency of [2, 4]) {
      const registry = createTestRegistry();
      const slow = ["a", "b", "c", "d"].map((id) => ({ id, type: "test.slow", config: { ms: 15 } }));
      const flow = flowOf(
        slow,
        slow.map((n) => ["t", n.id] as [string, string]),
        { concurrency },
      );
      const result = await exec(registry, { flow });
      expect(result.status).toBe("succeeded");
      expect(registry.maxConcurrent).toBe(concurrency);
    }
  });

  it("fails a node whose resolved config breaks its schema, without retrying it", async () => {
    const registry = createTestRegistry();
    const flow = flowOf(
      [{ id: "s", type: "test.slow", config: { ms: "=item.x" }, retry: { maxAttempts: 3, delayMs: 1 } }],
      [["t", "s"]],
    );
    const result = await exec(registry, { flow, trigger: { x: "soon" } });
    expect(result.error).toEqual({
      code: "config_invalid",
      message: 'node "s" field "ms": Invalid input: expected number, received string',
      nodeId: "s",
      field: "ms",
      retryable: false,
    });
    expect(result.steps.find((s) => s.nodeId === "s")?.attempt).toBe(1);
  });

  it("fails with expression_failed naming the node and field when an expression throws", async () => {
    const registry = createTestRegistry();
    const flow = flowOf([set("a", { v: "=$number('abc')" })], [["t", "a"]]);
    const result = await exec(registry, { flow });
    expect(result.error?.code).toBe("expression_failed");
    expect(result.error?.field).toBe("values.v");
    expect(result.error?.message).toMatch(/^node "a" field "values\.v" at position \d+: /);
  });

  it("lets expressions read earlier nodes' outputs and the run", async () => {
    const registry = createTestRegistry();
    const flow = flowOf(
      [
        set("a", { y: 2 }),
        set("b", { fromA: "=nodes.a.item.y", all: "=$count(nodes.a.items)", runId: "=run.id" }),
      ],
      [
        ["t", "a"],
        ["a", "b"],
      ],
    );
    const result = await exec(registry, { flow });
    expect(result.output).toEqual([{ json: { x: 1, y: 2, fromA: 2, all: 1, runId: "r1" } }]);
  });

  it("saves every retry attempt with its backoff time before starting the next", async () => {
    const registry = createTestRegistry();
    const store = new InMemoryStepStore();
    const retry = { maxAttempts: 3, backoff: "exponential", delayMs: 4, jitter: 0.5 };
    const flow = flowOf([{ id: "f", type: "test.fail-n-times", config: { times: 2 }, retry }], [["t", "f"]]);
    const clock = new Date("2029-06-01T00:00:00.000Z");
    const result = await exec(registry, { flow, stepStore: store, now: () => clock, random: () => 1 });
    expect(result.status).toBe("succeeded");
    const attempts = store.all("r1").filter((s) => s.nodeId === "f");
    expect(attempts.map((s) => [s.attempt, s.status, s.retryAt, s.error?.code])).toEqual([
      [1, "failed", "2029-06-01T00:00:00.006Z", "http_failed"],
      [2, "failed", "2029-06-01T00:00:00.012Z", "http_failed"],
      [3, "succeeded", undefined, undefined],
    ]);
  });

  it("resumes a crashed run: checkpointed steps are not executed again, the step in flight is", async () => {
    const registry = createTestRegistry();
    const store = new InMemoryStepStore();
    let crash = true;
    const crashing = {
      load: (id: string) => store.load(id),
      async save(step: StepRecord) {
        if (crash && step.nodeId === "b") throw new Error("process died");
        await store.save(step);
      },
    };
    const flow = flowOf(
      [set("a", { a: 1 }), set("b", { b: 1 }), set("c", { c: 1 })],
      [
        ["t", "a"],
        ["a", "b"],
        ["b", "c"],
      ],
    );
    await expect(exec(registry, { flow, stepStore: crashing })).rejects.toThrow("process died");
    expect(Object.fromEntries(registry.calls)).toEqual({ a: 1, b: 1 });
    crash = false;
    const result = await exec(registry, { flow, stepStore: crashing, trigger: { ignored: true } });
    expect(result.status).toBe("succeeded");
    expect(Object.fromEntries(registry.calls)).toEqual({ a: 1, b: 2, c: 1 });
    expect(result.output).toEqual([{ json: { x: 1, a: 1, b: 1, c: 1 } }]);
    expect(statuses(result.steps)).toEqual({
      "t#1": "succeeded",
      "a#1": "succeeded",
      "b#1": "succeeded",
      "c#1": "succeeded",
    });
  });

  it("parks a run on a durable wait and continues it after the wait ends", async () => {
    const registry = createTestRegistry();
    const store = new InMemoryStepStore();
    const flow = flowOf(
      [{ id: "w", type: "test.wait", config: { until: "2030-01-01T00:00:00Z" } }, set("a", { after: true })],
      [
        ["t", "w"],
        ["w", "a"],
      ],
    );
    const first = await exec(registry, {
      flow,
      stepStore: store,
      now: () => new Date("2029-12-31T00:00:00Z"),
    });
    expect(first.status).toBe("waiting");
    expect(first.resumeAt).toBe("2030-01-01T00:00:00.000Z");
    expect(statuses(first.steps)).toEqual({ "t#1": "succeeded", "w#1": "waiting" });

    const early = await exec(registry, {
      flow,
      stepStore: store,
      now: () => new Date("2029-12-31T12:00:00Z"),
    });
    expect(early.status).toBe("waiting");

    const second = await exec(registry, {
      flow,
      stepStore: store,
      now: () => new Date("2030-01-02T00:00:00Z"),
    });
    expect(second.status).toBe("succeeded");
    expect(statuses(second.steps)).toEqual({ "t#1": "succeeded", "w#1": "succeeded", "a#1": "succeeded" });
    expect(second.output).toEqual([{ json: { x: 1, after: true } }]);
    expect(registry.calls.get("a")).toBe(1);
  });

  it("reports live progress: step started and finished events, then the run result", async () => {
    const registry = createTestRegistry();
    const events: RunProgressEvent[] = [];
    const flow = flowOf([set("a")], [["t", "a"]]);
    const result = await exec(registry, {
      flow,
      onEvent: (e) => {
        events.push(e);
        throw new Error("a broken listener does not break the run");
      },
    });
    expect(
      events.map((e) =>
        e.type === "run.finished"
          ? e.type
          : `${e.type}:${e.type === "step.finished" ? e.step.nodeId : e.nodeId}`,
      ),
    ).toEqual(["step.finished:t", "step.started:a", "step.finished:a", "run.finished"]);
    expect(events.at(-1)).toEqual({ type: "run.finished", runId: "r1", result });
  });

  it("builds each node's context through ctxFactory and fails the node clearly when that throws", async () => {
    const seen: { nodeId: string; attempt: number }[] = [];
    const base = createTestRegistry();
    const probe: NodeDefinition = {
      ...(base.get("test.merge") as NodeDefinition),
      type: "test.probe",
      inputs: ["main"],
      config: z.object({}),
      execute: async ({ input, ctx }) => ({
        items: input.map((i) => ({ json: { ...i.json, tag: (ctx as { tag?: string }).tag } })),
      }),
    };
    const registry: TestRegistry = { ...base, get: (t) => (t === "test.probe" ? probe : base.get(t)) };
    const flow = flowOf([{ id: "p", type: "test.probe" }], [["t", "p"]]);
    const ok = await exec(registry, {
      flow,
      ctxFactory: (b) => {
        seen.push({ nodeId: b.nodeId, attempt: b.attempt });
        return { ...b, tag: "from-host" } as typeof b;
      },
    });
    expect(ok.output).toEqual([{ json: { x: 1, tag: "from-host" } }]);
    expect(seen).toEqual([{ nodeId: "p", attempt: 1 }]);
    const bad = await exec(registry, {
      flow,
      ctxFactory: () => {
        throw new Error("no http client configured");
      },
    });
    expect(bad.error).toMatchObject({ code: "not_configured", nodeId: "p", retryable: false });
    expect(bad.error?.message).toBe('context for node "p" failed: no http client configured');
  });

  it("normalises a thrown non-NodeError as internal and keeps its stack for the crash log", async () => {
    const registry = createTestRegistry();
    const flow = flowOf([{ id: "f", type: "test.fail-item", config: { fail: true } }], [["t", "f"]]);
    const result = await exec(registry, { flow });
    expect(result.error).toMatchObject({ code: "internal", nodeId: "f", itemIndex: 0, retryable: true });
    expect(result.error?.stack).toMatch(/rejected/);
  });
});
