import { CronExpressionParser } from "cron-parser";
import cronstrue from "cronstrue";
import { z } from "zod";
import { defineTrigger } from "../define";
import { NodeError } from "../errors";

/** Why an expression is refused, or undefined when it is a valid 5- or 6-field one. */
export function cronProblem(expression: string, timezone?: string): string | undefined {
  const fields = expression.trim().split(/\s+/).filter(Boolean).length;
  if (fields !== 5 && fields !== 6) return `expected 5 or 6 fields, got ${fields}`;
  if (timezone !== undefined && !isTimeZone(timezone)) return `unknown time zone "${timezone}"`;
  try {
    CronExpressionParser.parse(expression, { tz: timezone ?? "UTC", strict: false });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export interface CronDescription {
  description: string;
  /** The next five fire times as ISO strings (UTC). */
  next: string[];
}

/** Human description and the next five fire times, for the editor's preview. */
export function describeCron(
  expression: string,
  timezone?: string,
  from: Date = new Date(),
): CronDescription {
  const problem = cronProblem(expression, timezone);
  if (problem)
    throw new NodeError("config_invalid", `invalid cron expression: ${problem}`, { retryable: false });
  const interval = CronExpressionParser.parse(expression, { tz: timezone ?? "UTC", currentDate: from });
  const next = interval.take(5).map((d) => new Date(d.getTime()).toISOString());
  return { description: cronstrue.toString(expression, { use24HourTimeFormat: true }), next };
}

export const cronConfig = z
  .object({
    expression: z
      .string()
      .min(1)
      .describe("Cron expression with 5 fields (minute first) or 6 (seconds first)"),
    timezone: z
      .string()
      .optional()
      .refine((tz) => tz === undefined || isTimeZone(tz), "unknown time zone")
      .describe("IANA time zone, e.g. Europe/Berlin (default UTC)"),
    overlap: z
      .enum(["skip", "queue", "allow"])
      .default("skip")
      .describe("What to do when the previous run is still going"),
    missed: z
      .enum(["skip", "run_once"])
      .default("skip")
      .describe("What to do about fire times missed while the server was down"),
  })
  .superRefine((c, ctx) => {
    const problem = cronProblem(c.expression);
    if (problem) ctx.addIssue({ code: "custom", path: ["expression"], message: problem });
  });

/** Runs the flow on a schedule. */
export const cronTrigger = defineTrigger({
  type: "trigger.cron",
  typeVersion: 1,
  title: "Schedule",
  description: "Starts the flow on a cron schedule.",
  icon: "clock",
  channel: "cron",
  config: cronConfig,
  example: { expression: "0 9 * * 1-5", timezone: "Europe/Berlin", overlap: "skip", missed: "run_once" },
  payload: z.object({
    scheduledAt: z.string().describe("ISO time the run was due"),
    firedAt: z.string().describe("ISO time the run actually started"),
    expression: z.string().describe("The cron expression"),
    timezone: z.string().optional().describe("The time zone used"),
  }),
});
