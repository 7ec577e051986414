import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost, waitForRun } from "./test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

describe("cron → flow", () => {
  it("fires an active schedule in the running process and stops when deactivated", async () => {
    const flow = {
      nodes: [
        { id: "tick", type: "trigger.cron", config: { expression: "* * * * * *", timezone: "UTC" } },
        { id: "note", type: "data.set", config: { fields: [{ name: "at", value: "=item.firedAt" }], keepOnlySet: true } },
      ],
      edges: [{ from: { node: "tick", port: "main" }, to: { node: "note", port: "main" } }],
    };
    const { id } = await t.host.flows.create({ name: "Every second", definition: flow });
    await t.host.control.setActive(id, true);
    const deadline = Date.now() + 5_000;
    let runs = await t.host.runs.list({ flowId: id });
    while (runs.runs.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      runs = await t.host.runs.list({ flowId: id });
    }
    const run = await waitForRun(t.host, runs.runs[0]!.id);
    expect(run.channel).toBe("cron");
    expect(run.status).toBe("succeeded");
    expect(JSON.parse(run.triggerPayload)).toMatchObject({ timezone: "UTC", missed: false });
    expect(t.host.services.triggers.health(id)).toMatchObject({ kind: "cron", status: "listening" });

    await t.host.control.setActive(id, false);
    await new Promise((r) => setTimeout(r, 200));
    const before = (await t.host.runs.list({ flowId: id })).runs.length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await t.host.runs.list({ flowId: id })).runs.length).toBe(before);
  });
});
