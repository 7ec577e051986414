import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHost } from "./__tests__/test-host";
import type { RunFinished } from "./events";

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  t = await startTestHost();
});
afterAll(async () => {
  await t.close();
});

/** The next `run.finished` for this run, listened for before anything can emit it. */
function nextFinished(runId: string): Promise<RunFinished> {
  return new Promise((resolve) => {
    const on = (e: RunFinished) => {
      if (e.runId !== runId) return;
      t.host.services.events.off("run.finished", on);
      resolve(e);
    };
    t.host.services.events.on("run.finished", on);
  });
}

describe("host events", () => {
  it("announces a run that finished in the worker, with its flow, channel and status", async () => {
    const { id: flowId } = await t.host.flows.create({
      name: "Quick",
      definition: { nodes: [{ id: "start", type: "trigger.manual" }], edges: [] },
    });
    const { runId } = await t.host.control.startRun(flowId, { channel: "api" });
    expect(await nextFinished(runId)).toEqual({ runId, flowId, channel: "api", status: "succeeded" });
  });

  it("announces a parked run cancelled before a worker held it again (a live run page would wait forever)", async () => {
    const { id: flowId } = await t.host.flows.create({
      name: "Parked",
      definition: {
        nodes: [
          { id: "start", type: "trigger.manual" },
          { id: "pause", type: "flow.wait", config: { mode: "delay", amount: 1, unit: "hours" } },
        ],
        edges: [{ from: { node: "start" }, to: { node: "pause" } }],
      },
    });
    const { runId } = await t.host.control.startRun(flowId);
    expect(await nextFinished(runId)).toMatchObject({ status: "waiting" });
    const cancelled = nextFinished(runId);
    expect(await t.host.control.cancelRun(runId)).toEqual({ runId, result: "cancelled" });
    expect(await cancelled).toEqual({ runId, flowId, channel: "manual", status: "cancelled" });
  });
});
