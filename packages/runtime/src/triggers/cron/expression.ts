import { CronExpressionParser } from "cron-parser";
import { isKnownTimezone } from "./tz";

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

/** A validated schedule: the expression as 6 fields plus what the DST rules need to know. */
export interface CompiledSchedule {
  /** The expression as the user wrote it (trimmed). */
  expression: string;
  timezone: string;
  /**
   * True when the hour field is "*": such a schedule runs by elapsed time through DST changes
   * (see next-fire.ts); any other schedule follows the wall clock.
   */
  everyHour: boolean;
  /** The first matching wall-clock time at or after `wall` (wall times encoded as UTC ms). */
  wallAtOrAfter(wall: number): number | undefined;
}

const FIELD_HELP =
  "expected 5 (minute hour day-of-month month day-of-week) or 6 (second minute hour day-of-month month day-of-week)";

/** Splits into 6 fields (seconds first) or returns the error message. */
function toSixFields(expression: string): string[] | string {
  const trimmed = expression.trim();
  if (trimmed === "") return "Cron expression is empty";
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    return `Cron expression "${trimmed}" has ${fields.length} field${fields.length === 1 ? "" : "s"}; ${FIELD_HELP}`;
  }
  // cron-parser's "H" picks a random value on every parse, which would move the schedule each restart.
  if (fields.some((f) => f.split(",").some((token) => /^H($|[(/])/i.test(token)))) {
    return `Cron expression "${trimmed}" uses "H" (hashed values), which is not supported`;
  }
  return fields.length === 5 ? ["0", ...fields] : fields;
}

function parseWall(six: string, wall: number) {
  // Wall-clock times are enumerated in UTC; the time zone is applied afterwards with explicit DST rules.
  return CronExpressionParser.parse(six, { tz: "UTC", currentDate: new Date(wall - 1000) });
}

/** The error message for an invalid expression, or undefined when it is valid. */
export function validateCron(expression: string): string | undefined {
  const fields = toSixFields(expression);
  if (typeof fields === "string") return fields;
  const trimmed = expression.trim();
  try {
    parseWall(fields.join(" "), Date.UTC(2000, 0, 1)).next();
  } catch (err) {
    return `Invalid cron expression "${trimmed}": ${err instanceof Error ? err.message : String(err)}`;
  }
  return undefined;
}

/** The error message for an unknown time zone, or undefined when Intl knows it. */
export function validateTimezone(timezone: string): string | undefined {
  if (isKnownTimezone(timezone)) return undefined;
  return `Unknown time zone "${timezone}"; use an IANA name such as "Europe/Berlin" or "UTC"`;
}

/** Validates both inputs and compiles the schedule; throws CronConfigError with the message above. */
export function compileSchedule(expression: string, timezone: string): CompiledSchedule {
  const exprError = validateCron(expression);
  if (exprError) throw new CronConfigError(exprError, "expression");
  const tzError = validateTimezone(timezone);
  if (tzError) throw new CronConfigError(tzError, "timezone");
  const six = (toSixFields(expression) as string[]).join(" ");
  return {
    expression: expression.trim(),
    timezone,
    everyHour: six.split(" ")[2] === "*",
    wallAtOrAfter(wall) {
      try {
        return parseWall(six, wall).next().getTime();
      } catch {
        return undefined; // cron-parser gives up when nothing matches within its search horizon
      }
    },
  };
}
