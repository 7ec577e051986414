import { validateFlow } from "@switchyard/engine";
import { defineTrigger } from "@switchyard/nodes";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { sqliteOf, startTestHost, waitForRun } from "../__tests__/test-host";
import type { Clock } from "./cron/clock";
import { createFakeClock } from "./cron/fake-clock";
import { defineTriggerListener } from "./listener";
import { contextFor, owner } from "../trpc/__tests__/caller";
import { createCaller } from "../trpc/routers/app";

/*
 * A trigger type that exists only in this file: its definition and listener are handed to the host,
 * and nothing else (the manager, the registry, any list) knows about it.
 */

const intervalTrigger = defineTrigger({
  type: "test.interval",
  typeVersion: 1,
  title: "Interval",
  description: "Starts the flow every few milliseconds.",
  icon: "timer",
  // A timed trigger: its runs get the scheduled-run channel and that channel's agent policy.
  channel: "cron",
  config: z.object({ everyMs: z.number().int().min(1).describe("Milliseconds between runs") }),
  example: { everyMs: 60_000 },
  payload: z
    .object({
      tick: z.number().int().describe("1 for the first run after binding, then 2, 3, …"),
      firedAt: z.string().describe("ISO time of the tick"),
    })
    .strict(),
});

/** Fires each bound flow every `everyMs` on the given clock; a tick that cannot start a run turns health to error. */
function createIntervalListener(clock: Clock) {
  const timers = new Map<string, unknown>();
  const ticks: Promise<string | undefined>[] = [];
  return defineTriggerListener({
    trigger: intervalTrigger,
    bind(b) {
      let tick = 0;
      const arm = () => {
        timers.set(
          b.flowId,
          clock.setTimeout(() => {
            arm();
            tick += 1;
            const firedAt = new Date(clock.now()).toISOString();
            ticks.push(
              b.fire({ tick, firedAt }).catch((e: Error) => {
                b.report({ status: "error", lastError: e.message });
                return undefined;
              }),
            );
          }, b.config.everyMs),
        );
      };
      arm();
    },
    unbind(flowId) {
      clock.clearTimeout(timers.get(flowId));
      timers.delete(flowId);
    },
    close() {
      for (const t of timers.values()) clock.clearTimeout(t);
      timers.clear();
    },
    /** Flows with a tick armed. */
    armed: () => timers.size,
    /** The run id of every tick so far (undefined where admission failed), once settled. */
    runs: () => Promise.all(ticks),
  });
}

const START = "2026-03-02T09:00:00.000Z";
const intervalFlow = {
  nodes: [
    { id: "every", type: "test.interval", config: { everyMs: 60_000 } },
    {
      id: "note",
      type: "data.set",
      config: { fields: [{ name: "tick", value: "=item.tick" }], keepOnlySet: true },
    },
  ],
  edges: [{ from: { node: "every", port: "main" }, to: { node: "note", port: "main" } }],
};

let t: Awaited<ReturnType<typeof startTestHost>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start() {
  const clock = createFakeClock(START);
  const listener = createIntervalListener(clock);
  t = await startTestHost({}, { triggerListeners: [listener] });
  const { id } = await t.host.flows.create({ name: "Every minute", definition: intervalFlow });
  return { host: t.host, clock, listener, id };
}

describe("a trigger type defined only in a test", () => {
  it("is in the host's catalogue and its flows pass validation", async () => {
    const { host } = await start();
    expect(host.catalogue().find((e) => e.type === "test.interval")).toMatchObject({
      kind: "trigger",
      category: "trigger",
      title: "Interval",
      icon: "timer",
      example: { everyMs: 60_000 },
    });
    // The shipped types are still there beside it.
    expect(host.catalogue().map((e) => e.type)).toEqual(expect.arrayContaining(["trigger.cron", "data.set"]));
    // And the editor's palette, which reads catalogue.list, gets it too.
    const { token } = await host.auth.setup(owner, { local: true });
    const caller = createCaller((await contextFor(host, { cookie: `sy_session=${token}` })).ctx);
    expect((await caller.catalogue.list()).map((e) => e.type)).toContain("test.interval");
    expect(validateFlow(intervalFlow, host.services.registry)).toEqual([]);
  });

  it("binds on activation, fires a run with its payload on its channel, and unbinds on deactivation", async () => {
    const { host, clock, listener, id } = await start();
    await host.control.setActive(id, true);
    expect(listener.armed()).toBe(1);
    expect(host.services.triggers.health(id)).toEqual({
      flowId: id,
      nodeId: "every",
      type: "test.interval",
      status: "listening",
    });

    await clock.advance(60_000);
    const [runId] = await listener.runs();
    const run = await waitForRun(host, runId!);
    expect(run.status).toBe("succeeded");
    expect(run.channel).toBe("cron");
    const payload = { tick: 1, firedAt: "2026-03-02T09:01:00.000Z" };
    expect(JSON.parse(run.triggerPayload)).toEqual(payload);
    expect(intervalTrigger.payload.parse(payload)).toEqual(payload);
    expect(JSON.parse(run.output!)).toEqual([{ json: { tick: 1 } }]);
    expect(host.services.triggers.health(id)).toMatchObject({
      status: "listening",
      lastEventAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    await host.control.setActive(id, false);
    expect(listener.armed()).toBe(0);
    expect(host.services.triggers.health(id)).toBeUndefined();
    await clock.advance(5 * 60_000);
    expect(await listener.runs()).toEqual([runId]);
    expect((await host.runs.list({ flowId: id })).runs).toHaveLength(1);
  });

  it("moves to the new version on an edit: the old interval stops, the new one starts runs of version 2", async () => {
    const { host, clock, listener, id } = await start();
    await host.control.setActive(id, true);
    const edited = structuredClone(intervalFlow);
    edited.nodes[0]!.config = { everyMs: 30_000 };
    await host.flows.saveVersion(id, edited);
    await host.control.afterSave(id);
    expect(listener.armed()).toBe(1);
    await clock.advance(30_000);
    const [runId] = await listener.runs();
    const run = await waitForRun(host, runId!);
    expect(run).toMatchObject({ status: "succeeded", flowVersion: 2 });
    expect(JSON.parse(run.triggerPayload)).toEqual({ tick: 1, firedAt: "2026-03-02T09:00:30.000Z" });
    // The first version's 60 s tick was cleared by the rebind: at 60 s only the new interval fires.
    await clock.advance(30_000);
    expect((await listener.runs()).length).toBe(2);
  });

  it("reports error health with the reason when a tick cannot start a run", async () => {
    const { host, clock, listener, id } = await start();
    await host.control.setActive(id, true);
    // The flow's row disappears behind the host's back: the run it would start has no flow to belong to.
    sqliteOf(host).prepare(`DELETE FROM "Flow" WHERE id = ?`).run(id);
    await clock.advance(60_000);
    expect(await listener.runs()).toEqual([undefined]);
    expect(host.services.triggers.health(id)).toMatchObject({
      type: "test.interval",
      status: "error",
      lastError: expect.stringContaining("FOREIGN KEY"),
    });
  });

  it("is refused on a config its own schema rejects, naming the node and field, and binds nothing", async () => {
    const { host, listener } = await start();
    const broken = structuredClone(intervalFlow);
    broken.nodes[0]!.config = { everyMs: 0 };
    const { id } = await host.flows.create({ name: "Broken", definition: broken });
    await expect(host.control.setActive(id, true)).rejects.toThrow(
      `cannot activate: flow ${id} version 1 has problems: node "every" field "everyMs": Too small: expected number to be >=1`,
    );
    expect((await host.flows.get(id))?.active).toBe(false);
    expect(listener.armed()).toBe(0);
  });
});
