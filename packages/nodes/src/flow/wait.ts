import { z } from "zod";
import { defineNode } from "../define";

const UNIT_MS = { seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;
const MAX_WAIT_MS = 366 * UNIT_MS.days;

/** Pauses the run durably: the executor parks it and resumes at the returned time. */
export const waitNode = defineNode({
  type: "flow.wait",
  typeVersion: 1,
  title: "Wait",
  description: "Pauses the run for a while or until a given time.",
  category: "flow",
  icon: "hourglass",
  ports: ["main"],
  config: z.discriminatedUnion("mode", [
    z.object({
      mode: z.literal("delay").describe("Wait for a duration"),
      amount: z.number().positive().describe("How long"),
      unit: z.enum(["seconds", "minutes", "hours", "days"]).default("minutes").describe("Unit of the amount"),
    }),
    z.object({
      mode: z.literal("until").describe("Wait until a point in time"),
      until: z.iso
        .datetime({ offset: true })
        .describe("ISO date-time to resume at, e.g. 2025-01-31T09:00:00Z"),
    }),
  ]),
  example: { mode: "delay", amount: 15, unit: "minutes" },
  async execute({ config, input, ctx }) {
    const now = ctx.now().getTime();
    const target =
      config.mode === "delay"
        ? now + Math.min(config.amount * UNIT_MS[config.unit], MAX_WAIT_MS)
        : Math.min(Date.parse(config.until), now + MAX_WAIT_MS);
    // A time already past needs no pause.
    if (target <= now) return { items: input };
    return { wait: { until: new Date(target).toISOString() }, items: input };
  },
});
