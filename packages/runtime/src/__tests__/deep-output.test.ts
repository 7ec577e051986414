import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost, waitForRun } from "./test-host";

// A Code node can build a value nested deeper than JSON can serialise (≈ 5 000 levels): the step cannot be
// checkpointed, and the run must fail naming that node instead of crashing as "Maximum call stack size exceeded".
const code = "let o = 1; for (let i = 0; i < 6000; i++) o = { a: o }; return [{ json: { deep: o } }];";
const definition = {
  nodes: [
    { id: "start", type: "trigger.manual", config: {} },
    { id: "deep", type: "code", config: { code } },
  ],
  edges: [{ from: { node: "start", port: "main" }, to: { node: "deep", port: "main" } }],
};

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

describe("outputs too deeply nested to store", () => {
  it("fail the run with limit_exceeded naming the node", async () => {
    const { id: flowId } = await t.host.flows.create({ name: "Deep output", definition });
    const { runId } = await t.host.control.startRun(flowId);
    const run = await waitForRun(t.host, runId, 20_000);
    expect(run).toMatchObject({
      status: "failed",
      errorCode: "limit_exceeded",
      errorNodeId: "deep",
      errorMessage:
        'node "deep" produced a value too deeply nested to store: Maximum call stack size exceeded',
    });
  });
});
