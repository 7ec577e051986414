import cronstrue from "cronstrue";
import { compileSchedule } from "./expression";
import { nextFires } from "./next-fire";

export interface ScheduleDescription {
  /** e.g. "At 09:00 (America/New_York)". */
  description: string;
  /** The next fire instants, ISO 8601 in UTC. */
  next: string[];
}

/**
 * What the editor shows for a cron trigger. Throws CronConfigError with a clear message for an invalid
 * expression or time zone. The fire times follow the same DST rules as the scheduler.
 */
export function describeSchedule(
  expression: string,
  timezone: string,
  count = 5,
  from: Date = new Date(),
): ScheduleDescription {
  const schedule = compileSchedule(expression, timezone);
  let text = schedule.expression;
  try {
    text = cronstrue.toString(schedule.expression, { use24HourTimeFormat: true });
  } catch {
    // cronstrue only words the schedule; node-cron decides validity, so the raw expression will do.
  }
  return {
    description: `${text} (${timezone})`,
    next: nextFires(schedule, from.getTime(), count).map((ms) => new Date(ms).toISOString()),
  };
}
