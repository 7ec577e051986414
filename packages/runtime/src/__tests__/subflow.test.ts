import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost, waitForRun } from "./test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

const chain = (first: string, second: string) => ({
  from: { node: first, port: "main" },
  to: { node: second, port: "main" },
});

describe("flow.call", () => {
  it("runs the called flow as its own traced run and continues with its items", async () => {
    const child = await t.host.flows.create({
      name: "Double",
      definition: {
        nodes: [
          { id: "in", type: "trigger.manual" },
          {
            id: "double",
            type: "data.set",
            config: { fields: [{ name: "doubled", value: "=trigger.items[0].n * 2" }], keepOnlySet: true },
          },
        ],
        edges: [chain("in", "double")],
      },
    });
    const parent = await t.host.flows.create({
      name: "Caller",
      definition: {
        nodes: [
          { id: "start", type: "trigger.manual" },
          { id: "call", type: "flow.call", config: { flowId: child.id } },
        ],
        edges: [chain("start", "call")],
      },
    });
    const { runId } = await t.host.control.startRun(parent.id, { payload: { n: 21 } });
    const run = await waitForRun(t.host, runId);
    expect(run.status).toBe("succeeded");
    expect(JSON.parse(run.output!)).toEqual([{ json: { doubled: 42 } }]);
    const childRuns = await t.host.runs.list({ flowId: child.id });
    expect(childRuns.runs.map((r) => [r.channel, r.status])).toEqual([["subflow", "succeeded"]]);
  });

  it("stops a flow that calls itself at the depth limit with a clear error", async () => {
    const self = await t.host.flows.create({
      name: "Loop",
      definition: { nodes: [{ id: "start", type: "trigger.manual" }], edges: [] },
    });
    await t.host.flows.saveVersion(self.id, {
      nodes: [
        { id: "start", type: "trigger.manual" },
        { id: "again", type: "flow.call", config: { flowId: self.id, maxDepth: 3 } },
      ],
      edges: [chain("start", "again")],
    });
    const { runId } = await t.host.control.startRun(self.id);
    const run = await waitForRun(t.host, runId);
    expect(run.status).toBe("failed");
    expect(run.errorMessage).toContain(`sub-flow depth limit 3 reached calling "${self.id}"`);
  });
});
