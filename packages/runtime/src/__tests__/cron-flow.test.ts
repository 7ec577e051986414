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
        {
          id: "note",
          type: "data.set",
          config: { fields: [{ name: "at", value: "=item.firedAt" }], keepOnlySet: true },
        },
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
    expect(t.host.services.triggers.health(id)).toMatchObject({ type: "trigger.cron", status: "listening" });

    await t.host.control.setActive(id, false);
    const deactivatedAt = Date.now();
    // A tick due before deactivation may still be admitted late on a busy machine; none may be due after it.
    await new Promise((r) => setTimeout(r, 1_500));
    const after = await t.host.runs.list({ flowId: id, limit: 100 });
    const firedAt = await Promise.all(
      after.runs.map(
        async (r) =>
          (JSON.parse((await t.host.runs.get(r.id))!.triggerPayload) as { firedAt: string }).firedAt,
      ),
    );
    const firedAfter = firedAt.filter((at) => Date.parse(at) > deactivatedAt);
    expect(firedAfter).toEqual([]);
  });
});
