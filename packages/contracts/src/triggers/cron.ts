/**
 * The cron trigger's config and the payload its runs receive. Whether an expression is one node-cron
 * accepts is checked where node-cron lives (the nodes package adds that check to this shape), so this
 * module stays free of it.
 */
import { z } from "zod";

export const cronOverlap = z
  .enum(["skip", "queue", "allow"])
  .describe("What to do when the previous run is still going");
export type CronOverlap = z.infer<typeof cronOverlap>;

export const cronMissed = z
  .enum(["skip", "run_once"])
  .describe("What to do about fire times missed while the server was down");
export type CronMissed = z.infer<typeof cronMissed>;

/** The shape of a schedule; the nodes package's `trigger.cron` refines it with node-cron's own check. */
export const cronConfigShape = z.object({
  expression: z.string().min(1).describe("Cron expression with 5 fields (minute first) or 6 (seconds first)"),
  timezone: z.string().optional().describe("IANA time zone, e.g. Europe/Berlin (default: the flow's)"),
  overlap: cronOverlap.default("skip"),
  missed: cronMissed.default("skip"),
});
export type CronConfig = z.infer<typeof cronConfigShape>;

/** What a scheduled run receives as its trigger item; the scheduler builds exactly this. */
export const cronPayload = z.strictObject({
  scheduledAt: z.string().describe("ISO time (UTC) of the schedule slot the run belongs to"),
  firedAt: z.string().describe("ISO time (UTC) the run was admitted"),
  expression: z.string().describe("The cron expression"),
  timezone: z.string().describe("The IANA time zone the expression was read in"),
  missed: z.boolean().describe("True for the one catch-up run after downtime (missed: run_once)"),
});
export type CronPayload = z.infer<typeof cronPayload>;
