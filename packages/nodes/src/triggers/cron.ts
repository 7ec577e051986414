import cron from "node-cron";
import { isTimeZone } from "@switchyard/contracts/flow";
import { cronConfigShape, cronPayload } from "@switchyard/contracts/triggers";
import { defineTrigger } from "../define";

/** A cron configuration mistake: which field is wrong and why. */
export interface CronProblem {
  field: "expression" | "timezone";
  message: string;
}

const FIELD_HELP =
  "expected 5 (minute hour day-of-month month day-of-week) or 6 (second minute hour day-of-month month day-of-week)";

/** Each field's name and what it accepts, for the message that names a bad one. */
const FIELD_RANGE: Record<string, [string, string]> = {
  second: ["second", "0-59"],
  minute: ["minute", "0-59"],
  hour: ["hour", "0-23"],
  dayOfMonth: ["day of month", "1-31, L, L-n, nW or LW"],
  month: ["month", "1-12 or JAN-DEC"],
  dayOfWeek: ["day of week", "0-7 or SUN-SAT, n#k or nL"],
};

export { isTimeZone };

/**
 * Why a schedule is refused, or undefined when node-cron accepts the expression and Intl knows the zone.
 * The one check used at save time (the config schema below) and at activation (the scheduler).
 */
export function cronProblem(expression: string, timezone?: string): CronProblem | undefined {
  const trimmed = expression.trim();
  const problem = (message: string): CronProblem => ({ field: "expression", message });
  if (trimmed === "") return problem("Cron expression is empty");
  const result = cron.validateDetailed(trimmed);
  if (!result.valid) {
    const fields = trimmed.split(/\s+/).length;
    const reasons = result.errors.map((e) => {
      if (e.field === "expression" && /fields/.test(e.message)) {
        return `has ${fields} field${fields === 1 ? "" : "s"}; ${FIELD_HELP}`;
      }
      if (e.field === "expression") return "contains characters a cron expression cannot have";
      if (/impossible/.test(e.message))
        return `never fires: day of month "${e.value}" is not in any of its months`;
      const [name, expected] = FIELD_RANGE[e.field] ?? [e.field, "a valid value"];
      return `has an invalid ${name} "${e.value}" (expected ${expected})`;
    });
    return problem(`Cron expression "${trimmed}" ${reasons.join("; ")}`);
  }
  if (timezone !== undefined && !isTimeZone(timezone)) {
    return {
      field: "timezone",
      message: `Unknown time zone "${timezone}"; use an IANA name such as "Europe/Berlin" or "UTC"`,
    };
  }
  return undefined;
}

/** The contracts' schedule shape plus node-cron's own check, the one save time and activation share. */
export const cronConfig = cronConfigShape.superRefine((c, ctx) => {
  const problem = cronProblem(c.expression, c.timezone);
  if (problem) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
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
  payload: cronPayload,
});
