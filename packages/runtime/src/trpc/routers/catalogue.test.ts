import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeEach(async () => {
  t = await testCaller({ seed: false });
});
afterEach(async () => {
  await t.cleanup();
});

const settings = { timezone: "UTC", maxRunMs: 300000, concurrency: 4 };
/** An instant as weekday and wall time in Berlin, e.g. "Mon 09:00". */
const berlin = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Berlin",
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .format(new Date(iso))
    .replace(",", "");
const badUrlFlow = {
  nodes: [
    {
      id: "t",
      type: "trigger.manual",
      typeVersion: 1,
      name: "Start",
      config: {},
      position: { x: 0, y: 0 },
      onError: "stop",
    },
    {
      id: "r",
      type: "http.request",
      typeVersion: 1,
      name: "Call",
      config: { url: "not a url" },
      position: { x: 300, y: 0 },
      onError: "stop",
    },
  ],
  edges: [{ from: { node: "t", port: "main" }, to: { node: "r", port: "main" } }],
  settings,
};

describe("catalogue router", () => {
  it("lists every node type with its ports and a JSON Schema form", async () => {
    const list = await t.caller.catalogue.list();
    const http = list.find((e) => e.type === "http.request");
    expect(http).toMatchObject({ kind: "action", inputs: ["main"], ports: ["main"] });
    expect(
      (http?.configSchema as { properties?: Record<string, unknown> } | undefined)?.properties,
    ).toHaveProperty("url");
    expect(list.find((e) => e.type === "trigger.webhook")).toMatchObject({ kind: "trigger", inputs: [] });
  });

  it("describes a schedule with its next five fire times in the trigger's time zone, and refuses a bad one with 400", async () => {
    // The clock is real here: the weekday and the hour in the zone are what is fixed.
    const d = await t.caller.catalogue.describeCron({ expression: "0 9 * * 1-5", timezone: "Europe/Berlin" });
    expect(d.description).toBe("At 09:00, Monday through Friday (Europe/Berlin)");
    expect(d.next).toHaveLength(5);
    for (const at of d.next) expect(berlin(at)).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/);
    await expect(t.caller.catalogue.describeCron({ expression: "61 * * * *" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: 'Cron expression "61 * * * *" has an invalid minute "61" (expected 0-59)',
    });
    await expect(
      t.caller.catalogue.describeCron({ expression: "0 9 * * *", timezone: "Mars/Base" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: 'Unknown time zone "Mars/Base"; use an IANA name such as "Europe/Berlin" or "UTC"',
    });
  });

  it("previews a trigger without its own time zone in the flow's, as the scheduler runs it", async () => {
    const d = await t.caller.catalogue.describeCron({
      expression: "0 9 * * *",
      flowTimezone: "Europe/Berlin",
    });
    expect(d.description).toBe("At 09:00 (Europe/Berlin)");
    for (const at of d.next) expect(berlin(at)).toMatch(/ 09:00$/);
    const own = await t.caller.catalogue.describeCron({
      expression: "0 9 * * *",
      timezone: "UTC",
      flowTimezone: "Europe/Berlin",
    });
    expect(own.description).toBe("At 09:00 (UTC)");
    for (const at of own.next) expect(at).toMatch(/T09:00:00\.000Z$/);
  });
});

describe("flow validation", () => {
  it("saves a draft with problems, returns them, and refuses to activate it with the list", async () => {
    const { id, problems } = await t.caller.flow.create({ name: "Broken", definition: badUrlFlow });
    expect(problems).toEqual([
      expect.objectContaining({ code: "config_invalid", nodeId: "r", field: "url" }),
    ]);
    expect((await t.caller.flow.validate({ definition: badUrlFlow })).problems).toEqual(problems);
    await expect(t.caller.flow.setActive({ id, active: true })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining('cannot activate: version 1 has 1 problem:\n- node "r" field "url"'),
    });
    expect((await t.caller.flow.get({ id })).flow.active).toBe(false);
  });
});
