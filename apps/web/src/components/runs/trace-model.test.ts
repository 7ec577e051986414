import { describe, expect, it } from "vitest";
import {
  inferInFlight,
  isStoredStep,
  mergeLiveSteps,
  nodeTraces,
  type StepSummary,
  statusOfNode,
  waterfall,
} from "./trace-model";

const at = (ms: number) => new Date(Date.parse("2026-01-01T00:00:00Z") + ms).toISOString();
const step = (p: Partial<StepSummary> & { nodeId: string; startMs: number; endMs: number }): StepSummary => ({
  id: `${p.nodeId}-${p.attempt ?? 1}-${p.startMs}`,
  stepId: `${p.nodeId}#${p.visit ?? 1}`,
  visit: 1,
  attempt: 1,
  status: "succeeded",
  port: "main",
  reason: null,
  errorCode: null,
  errorMessage: null,
  retryAt: null,
  durationMs: p.endMs - p.startMs,
  startedAt: at(p.startMs),
  endedAt: at(p.endMs),
  ...p,
});

const steps = [
  step({ nodeId: "t", startMs: 0, endMs: 1 }),
  step({
    nodeId: "http",
    startMs: 5,
    endMs: 20,
    status: "failed",
    errorMessage: "HTTP 500",
    retryAt: at(120),
  }),
  step({
    nodeId: "http",
    attempt: 2,
    startMs: 120,
    endMs: 130,
    status: "failed",
    errorMessage: "HTTP 500",
    retryAt: at(330),
  }),
  step({ nodeId: "http", attempt: 3, startMs: 330, endMs: 340 }),
  step({ nodeId: "no", startMs: 340, endMs: 340, status: "skipped", reason: "no_input" }),
];

describe("trace model", () => {
  it("takes each node's latest attempt, counting attempts", () => {
    const t = nodeTraces(steps, [], true);
    expect(t.get("http")).toMatchObject({ status: "succeeded", attempts: 3 });
    expect(t.get("no")?.status).toBe("skipped");
    expect(statusOfNode(t, "never", true).status).toBe("not_run");
    expect(statusOfNode(t, "never", false).status).toBe("pending");
  });

  it("shows a failed attempt with a retry time as retrying while the run is live, and a live start as running", () => {
    const live = nodeTraces(steps.slice(0, 2), [], false);
    expect(live.get("http")).toMatchObject({ status: "retrying", attempts: 1 });
    const running = nodeTraces(
      steps.slice(0, 2),
      [{ nodeId: "http", visit: 1, attempt: 2, at: at(120) }],
      false,
    );
    expect(running.get("http")).toMatchObject({ status: "running", attempts: 2 });
    // A start that the store has already checkpointed does not override the record.
    const stale = nodeTraces(steps, [{ nodeId: "http", visit: 1, attempt: 3, at: at(330) }], false);
    expect(stale.get("http")?.status).toBe("succeeded");
  });

  it("draws one bar per attempt at its offset from the run start, plus running steps", () => {
    const { bars, totalMs } = waterfall(
      steps,
      [{ nodeId: "next", visit: 1, attempt: 1, at: at(340) }],
      at(0),
      Date.parse(at(400)),
    );
    expect(bars.filter((b) => b.nodeId === "http").map((b) => [b.attempt, b.offsetMs, b.durationMs])).toEqual(
      [
        [1, 5, 15],
        [2, 120, 10],
        [3, 330, 10],
      ],
    );
    expect(bars.at(-1)).toMatchObject({ nodeId: "next", status: "running", offsetMs: 340, durationMs: 60 });
    expect(totalMs).toBe(400);
  });
});

describe("in-flight inference", () => {
  const edges = [
    { from: { node: "t" }, to: { node: "http" } },
    { from: { node: "http" }, to: { node: "if" } },
    { from: { node: "if", port: "true" }, to: { node: "yes" } },
    { from: { node: "if", port: "false" }, to: { node: "no" } },
  ];
  it("marks a node whose inputs are all done as running while the run runs", () => {
    expect(inferInFlight(steps.slice(0, 1), edges, "running")).toEqual([
      { nodeId: "http", visit: 1, attempt: 1, at: at(1) },
    ]);
    expect(inferInFlight(steps.slice(0, 1), edges, "succeeded")).toEqual([]);
  });
  it("does not mark a node waiting on a retry, nor the branch its predecessor did not take", () => {
    expect(inferInFlight(steps.slice(0, 2), edges, "running")).toEqual([]);
    const ifStep = step({ nodeId: "if", startMs: 340, endMs: 341, port: "true" });
    expect(inferInFlight([...steps.slice(0, 4), ifStep], edges, "running").map((l) => l.nodeId)).toEqual([
      "yes",
    ]);
  });
});

describe("live steps", () => {
  it("treats a running run's trigger as done before its checkpoint is stored", () => {
    const edges = [{ from: { node: "t" }, to: { node: "http" } }];
    expect(inferInFlight([], edges, "running", at(0))).toEqual([
      { nodeId: "http", visit: 1, attempt: 1, at: at(0) },
    ]);
  });

  it("adds streamed steps the store has not written, once", () => {
    const streamed = [
      {
        nodeId: "t",
        visit: 1,
        attempt: 1,
        status: "succeeded",
        port: "main",
        reason: null,
        errorCode: null,
        errorMessage: null,
        retryAt: null,
        startedAt: at(0),
        endedAt: at(1),
      },
      {
        nodeId: "x",
        visit: 1,
        attempt: 1,
        status: "failed",
        port: null,
        reason: null,
        errorCode: "http_failed",
        errorMessage: "HTTP 500",
        retryAt: at(900),
        startedAt: at(2),
        endedAt: at(5),
      },
    ];
    const merged = mergeLiveSteps(steps.slice(0, 1), streamed);
    expect(merged.map((s) => [s.nodeId, s.status, isStoredStep(s.id)])).toEqual([
      ["t", "succeeded", true],
      ["x", "failed", false],
    ]);
    expect(nodeTraces(merged, [], false).get("x")).toMatchObject({
      status: "retrying",
      errorMessage: "HTTP 500",
    });
    expect(
      waterfall(merged, [], at(0), Date.parse(at(10))).bars.find((b) => b.nodeId === "x")?.stepRowId,
    ).toBeUndefined();
  });
});
