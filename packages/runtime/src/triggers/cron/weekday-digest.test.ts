import { readFileSync } from "node:fs";
import path from "node:path";
import { FlowDefinition, runFlow } from "@switchyard/engine";
import { cronTrigger, registry } from "@switchyard/nodes";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { CronFirePayload } from "./binding";
import { createFakeClock } from "./fake-clock";
import { createCronScheduler } from "./scheduler";
import { createMemoryStore } from "./test-harness";

const file = path.resolve(import.meta.dirname, "../../../../../examples/flows/weekday-digest.json");
const flow = FlowDefinition.parse(JSON.parse(readFileSync(file, "utf8")));

/** The shipped example, bound the way activation binds it, on a virtual clock; each fire runs the flow. */
async function runDigest(start: string, until: string, lastFire?: string) {
  const clock = createFakeClock(start);
  const store = createMemoryStore(lastFire ? { "digest/schedule": lastFire } : {});
  const outputs: Array<{ payload: CronFirePayload; items: unknown[] }> = [];
  const scheduler = createCronScheduler({
    clock,
    store,
    log: pino({ level: "silent" }),
    isRunning: () => false,
    async fire(b, payload) {
      const result = await runFlow({
        flow,
        registry,
        run: {
          id: `run-${outputs.length + 1}`,
          flowId: b.flowId,
          startedAt: payload.firedAt,
          channel: "cron",
        },
        trigger: payload,
      });
      expect(result.status).toBe("succeeded");
      outputs.push({ payload, items: result.output.map((i) => i.json) });
      return result.runId;
    },
  });
  const trigger = flow.nodes.find((n) => n.type === cronTrigger.type);
  const config = cronTrigger.config.parse(trigger?.config);
  await scheduler.bind({
    flowId: "digest",
    flowVersion: 1,
    nodeId: trigger?.id ?? "",
    ...config,
    timezone: config.timezone ?? flow.settings.timezone,
  });
  await clock.advanceTo(until);
  scheduler.stop();
  return outputs;
}

describe("examples/flows/weekday-digest.json run by its schedule", () => {
  it("titles each weekday's digest with the date it was due, at 09:00 Berlin time", async () => {
    const out = await runDigest("2025-01-03T12:00:00Z", "2025-01-07T12:00:00Z");
    expect(out.map((o) => o.items)).toEqual([
      [{ title: "Digest for 2025-01-06", due: "2025-01-06T08:00:00.000Z" }],
      [{ title: "Digest for 2025-01-07", due: "2025-01-07T08:00:00.000Z" }],
    ]);
  });

  it("titles the catch-up run after downtime with the due date, not the day it ran", async () => {
    const out = await runDigest("2025-01-04T10:00:00Z", "2025-01-04T11:00:00Z", "2025-01-02T08:00:00Z");
    expect(out).toEqual([
      {
        payload: {
          scheduledAt: "2025-01-03T08:00:00.000Z",
          firedAt: "2025-01-04T10:00:00.000Z",
          expression: "0 9 * * 1-5",
          timezone: "Europe/Berlin",
          missed: true,
        },
        items: [{ title: "Digest for 2025-01-03", due: "2025-01-03T08:00:00.000Z" }],
      },
    ]);
  });
});
