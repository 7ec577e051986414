import { validateFlow } from "@switchyard/engine";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost } from "../../__tests__/test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

const cronFlow = (config: object, timezone = "UTC") => ({
  nodes: [{ id: "tick", type: "trigger.cron", config }],
  edges: [],
  settings: { timezone, maxRunMs: 300_000, concurrency: 4 },
});

describe("cron activation agrees with save-time validation", () => {
  it("activates every expression that saved without problems", async () => {
    for (const expression of ["0 9 * * 1-5", "0 0 L * *", "0 9 * * MON#1", "@hourly", "*/5 * * * * *"]) {
      const definition = cronFlow({ expression });
      // What saving reports (the web app's flow.create runs the same validation).
      expect(validateFlow(definition, t.host.services.registry)).toEqual([]);
      const { id } = await t.host.flows.create({ name: expression, definition });
      await expect(t.host.control.setActive(id, true)).resolves.toMatchObject({ active: true });
      expect(t.host.services.triggers.health(id)).toMatchObject({
        type: "trigger.cron",
        status: "listening",
      });
    }
  });

  it("refuses a flow time zone the schedule cannot use as a bad request naming it, not a crash", async () => {
    const definition = cronFlow({ expression: "0 9 * * *" }, "Mars/Olympus");
    // Saving reports it now (the flow settings check the zone); a version stored before that is refused at activation.
    expect(validateFlow(definition, t.host.services.registry)).toMatchObject([
      { field: "settings.timezone", code: "flow_invalid" },
    ]);
    const { id } = await t.host.flows.create({ name: "Mars", definition });
    await expect(t.host.control.setActive(id, true)).rejects.toMatchObject({
      name: "RunControlError",
      code: "bad_request",
      message: `cannot activate: flow ${id} version 1 is not a valid flow: settings.timezone: Unknown time zone "Mars/Olympus"; use an IANA name such as "Europe/Berlin" or "UTC"`,
    });
    expect((await t.host.flows.get(id))?.active).toBe(false);
  });
});
