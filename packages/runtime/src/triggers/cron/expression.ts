/**
 * A validated schedule whose wall-clock matching is node-cron's: its parsed fields give the seconds,
 * minutes, hours and months, and never-started node-cron tasks (read in UTC) decide which days
 * match, so L, W, # and names mean exactly what node-cron means. One exception, on purpose: when both
 * day of month and day of week are restricted, a day matching either fires, as in classic (Vixie) cron,
 * crontab(5), n8n and cron-parser; node-cron alone would demand both (`0 9 13 * 5` = Friday the 13th).
 * Turning wall times into instants with our DST rules happens in next-fire.ts.
 */
import { cronProblem } from "@switchyard/nodes";
import cron, { type ScheduledTask } from "node-cron";

/** A user's cron configuration mistake: bad expression or unknown time zone. Not retryable. */
export class CronConfigError extends Error {
  override name = "CronConfigError";
  constructor(
    message: string,
    readonly field: "expression" | "timezone",
  ) {
    super(message);
  }
}

export interface CompiledSchedule {
  /** The expression as the user wrote it (trimmed). */
  expression: string;
  timezone: string;
  /**
   * True when the hour field matches every hour: such a schedule runs by elapsed time through DST
   * changes (see next-fire.ts); any other schedule follows the wall clock.
   */
  everyHour: boolean;
  /** The first matching wall-clock time at or after `wall` (wall times encoded as UTC ms). */
  wallAtOrAfter(wall: number): number | undefined;
}

/** node-cron's own search horizon: a schedule with no match within a century never fires. */
const MAX_DAYS = 366 * 100;
const DAY_MS = 86_400_000;

/** Validates both inputs (the same check as save time) and compiles; throws CronConfigError. */
export function compileSchedule(expression: string, timezone: string): CompiledSchedule {
  const problem = cronProblem(expression, timezone);
  if (problem) throw new CronConfigError(problem.message, problem.field);
  const trimmed = expression.trim();
  const { fields } = cron.validateDetailed(trimmed);
  if (!fields) throw new CronConfigError(`Cron expression "${trimmed}" could not be parsed`, "expression");
  const asc = (v: Array<number | string>) => [...new Set(v as number[])].sort((a, b) => a - b);
  const seconds = asc(fields.second);
  const minutes = asc(fields.minute);
  const hours = asc(fields.hour);
  const months = new Set(fields.month);
  const [s0 = 0, m0 = 0, h0 = 0] = [seconds[0], minutes[0], hours[0]];

  /** Whether one of the day tasks matches this calendar day (at a time of day that matches by construction). */
  const dayMatches = (tasks: ScheduledTask[], day: number) =>
    tasks.some((task) => task.match(new Date(day + h0 * 3_600_000 + m0 * 60_000 + s0 * 1000)));
  const dayExpressions = eitherDayFields(trimmed);

  /** The first (hour, minute, second) of a day at or after `from` seconds into it, in seconds. */
  const firstTimeOfDay = (from: number): number | undefined => {
    for (const h of hours) {
      if ((h + 1) * 3600 <= from) continue;
      for (const m of minutes) {
        if (h * 3600 + (m + 1) * 60 <= from) continue;
        for (const s of seconds) if (h * 3600 + m * 60 + s >= from) return h * 3600 + m * 60 + s;
      }
    }
    return undefined;
  };

  return {
    expression: trimmed,
    timezone,
    everyHour: hours.length === 24,
    wallAtOrAfter(wall) {
      const start = Math.ceil(wall / 1000) * 1000;
      let day = Math.floor(start / DAY_MS) * DAY_MS;
      let from = (start - day) / 1000;
      // A never-started task has no timer; it only answers match(). Destroyed so the registry stays empty.
      const tasks = dayExpressions.map((e) => cron.createTask(e, () => undefined, { timezone: "UTC" }));
      try {
        for (let i = 0; i < MAX_DAYS; i++, day += DAY_MS, from = 0) {
          if (!months.has(new Date(day).getUTCMonth() + 1) || !dayMatches(tasks, day)) continue;
          const second = firstTimeOfDay(from);
          if (second !== undefined) return day + second * 1000;
        }
        return undefined;
      } finally {
        for (const task of tasks) void task.destroy();
      }
    },
  };
}

const unrestricted = (field: string) => field === "*" || field === "?";

/**
 * The expressions whose day matches are OR-ed: the expression itself, or — when both day fields are
 * restricted — one with only the day of month and one with only the day of week.
 */
function eitherDayFields(expression: string): string[] {
  const parts = expression.split(/\s+/);
  if (parts.length < 5) return [expression]; // nicknames such as @daily restrict at most one day field
  const dom = parts.length - 3;
  const dow = parts.length - 1;
  if (unrestricted(parts[dom]!) || unrestricted(parts[dow]!)) return [expression];
  const without = (drop: number) => parts.map((p, i) => (i === drop ? "*" : p)).join(" ");
  return [without(dow), without(dom)];
}
