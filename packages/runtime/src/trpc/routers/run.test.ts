import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

type T = Awaited<ReturnType<typeof testCaller>>;
let t: T;

const definition = {
  nodes: [
    { id: "start", type: "trigger.manual", name: "Start", config: {} },
    {
      id: "stop",
      type: "flow.stop",
      name: "Reject",
      config: { outcome: "error", message: "customer missing" },
    },
  ],
  edges: [{ from: { node: "start", port: "main" }, to: { node: "stop", port: "main" } }],
};

async function finished(id: string) {
  for (let i = 0; i < 200; i++) {
    const run = await t.caller.run.get({ id });
    if (["succeeded", "failed", "cancelled"].includes(run.status)) return run;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`run ${id} did not finish`);
}

beforeAll(async () => {
  t = await testCaller();
  await t.host.start();
}, 30_000);
afterAll(async () => {
  await t.cleanup();
});

describe("run router", () => {
  it("returns the trace with the version that ran, the parsed payload and per-step errors without stacks", async () => {
    const flow = await t.caller.flow.create({ name: "Stops", definition });
    const { runId } = await t.caller.flow.run({ id: flow.id, payload: { order: 7 } });
    const run = await finished(runId);
    expect(run).toMatchObject({
      status: "failed",
      errorMessage: "customer missing",
      errorNodeId: "stop",
      payload: { order: 7 },
    });
    expect(run.definition).toEqual(definition);
    expect(run.steps.map((s) => [s.nodeId, s.status])).toEqual([
      ["start", "succeeded"],
      ["stop", "failed"],
    ]);
    const step = await t.caller.run.step({ runId, stepRowId: run.steps[1]!.id });
    expect(step).toMatchObject({
      errorCode: "input_invalid",
      errorMessage: "customer missing",
      errorStack: null,
    });
    expect(JSON.parse(step.input!)).toEqual([{ json: { order: 7 } }]);
    await expect(t.caller.run.step({ runId: "other", stepRowId: run.steps[1]!.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("re-runs the same version with the same payload and channel, linked both ways", async () => {
    const flow = await t.caller.flow.create({ name: "Rerun me", definition });
    const { runId } = await t.caller.flow.run({ id: flow.id, payload: { order: 8 } });
    await finished(runId);
    await t.caller.flow.save({
      id: flow.id,
      definition: { ...definition, nodes: [definition.nodes[0]!], edges: [] },
    });
    const again = await t.caller.run.rerun({ id: runId });
    expect(again.flowVersion).toBe(1);
    const rerun = await finished(again.runId);
    expect(rerun).toMatchObject({
      rerunOf: runId,
      payload: { order: 8 },
      channel: "manual",
      flowVersion: 1,
      status: "failed",
    });
    expect((await t.caller.run.get({ id: runId })).reruns).toEqual([
      { id: again.runId, status: "failed", stepMode: null },
    ]);
  });

  it("answers cancel of a finished run as already finished, and of an unknown one with NOT_FOUND", async () => {
    const flow = await t.caller.flow.create({ name: "Done", definition });
    const { runId } = await t.caller.flow.run({ id: flow.id });
    await finished(runId);
    expect(await t.caller.run.cancel({ id: runId })).toEqual({ runId, result: "already_finished" });
    await expect(t.caller.run.cancel({ id: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(t.caller.run.get({ id: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("filters and counts, and refuses a malformed cursor with BAD_REQUEST", async () => {
    const counts = await t.caller.run.counts({ status: "failed" });
    expect(counts.byStatus.failed).toBeGreaterThanOrEqual(4);
    const page = await t.caller.run.list({
      status: ["failed"],
      search: "customer missing",
      sort: "oldest",
      limit: 2,
    });
    expect(page.runs).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    await expect(t.caller.run.list({ sort: "duration", cursor: "garbage" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(t.caller.run.counts({ search: "%%" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: 'search "%%" has no letter or digit to look for: search matches whole words',
    });
  });

  it("lets only owners change retention, validates the policy and reports the database size", async () => {
    const editor = await t.as("editor");
    await expect(editor.caller.run.retention.setPolicy({ policy: { keepDays: 30 } })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(t.caller.run.retention.setPolicy({ policy: { keepDays: -3 } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(
      await t.caller.run.retention.setPolicy({ policy: { keepDays: 30, flows: { f: { keepRuns: 10 } } } }),
    ).toEqual({
      keepDays: 30,
      flows: { f: { keepRuns: 10 } },
    });
    expect(await editor.caller.run.retention.policy()).toMatchObject({ keepDays: 30 });
    const storage = await editor.caller.run.retention.storage();
    expect(storage.size.totalBytes).toBe(storage.size.databaseBytes + storage.size.walBytes);
    expect(storage.size.databaseBytes).toBeGreaterThan(0);
    expect((await t.caller.run.retention.pruneNow()).deletedRuns).toBe(0);
  });
});
