import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost, waitForRun } from "./test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

describe("merge by key through the real executor", () => {
  it("joins two branches on a key using the items of each input port", async () => {
    const set = (fields: [string, string][]) => ({
      fields: fields.map(([name, value]) => ({ name, value })),
      keepOnlySet: true,
    });
    const flow = {
      nodes: [
        { id: "start", type: "trigger.manual", config: {} },
        {
          id: "orders",
          type: "data.set",
          config: set([
            ["id", "=trigger.orderId"],
            ["total", "=42"],
          ]),
        },
        {
          id: "customers",
          type: "data.set",
          config: set([
            ["id", "=trigger.orderId"],
            ["name", "=trigger.customer"],
          ]),
        },
        { id: "join", type: "flow.merge", config: { mode: "byKey", key: "id", join: "inner" } },
      ],
      edges: [
        { from: { node: "start", port: "main" }, to: { node: "orders", port: "main" } },
        { from: { node: "start", port: "main" }, to: { node: "customers", port: "main" } },
        { from: { node: "orders", port: "main" }, to: { node: "join", port: "a" } },
        { from: { node: "customers", port: "main" }, to: { node: "join", port: "b" } },
      ],
    };
    const { id } = await t.host.flows.create({ name: "Join", definition: flow });
    const { runId } = await t.host.control.startRun(id, { payload: { orderId: "o-7", customer: "Ada" } });
    const run = await waitForRun(t.host, runId);
    expect(run.status).toBe("succeeded");
    expect(JSON.parse(run.output!)).toEqual([{ json: { id: "o-7", total: 42, name: "Ada" } }]);
  });
});
