import { z } from "zod";

/** Setting key holding the global policy and per-flow overrides. */
export const RETENTION_SETTING = "retention.policy";

const days = z.number().positive().max(36_500);

/** How long finished runs are kept. Absent fields keep runs forever on that axis. */
export const RetentionRule = z
  .object({
    keepDays: days.optional().describe("Delete finished runs older than this many days"),
    keepRuns: z
      .int()
      .min(1)
      .max(10_000_000)
      .optional()
      .describe("Keep at most this many finished runs per flow"),
    keepFailedDays: days
      .optional()
      .describe("Failed and timed-out runs: delete after this many days (default: keepDays)"),
  })
  .strict();
export type RetentionRule = z.infer<typeof RetentionRule>;

/** Global rule at the top level, with per-flow overrides merged field by field over it. */
export const RetentionPolicy = RetentionRule.extend({
  flows: z.record(z.string().min(1), RetentionRule).default({}),
  storageBudgetMb: z
    .number()
    .positive()
    .max(100_000_000)
    .optional()
    .describe("When the database holds more than this, the oldest finished runs go first"),
}).strict();
export type RetentionPolicy = z.infer<typeof RetentionPolicy>;
export type RetentionPolicyInput = z.input<typeof RetentionPolicy>;

/** The rule a flow is pruned by. An override field set to a value replaces the global one. */
export function effectiveRule(policy: RetentionPolicy, flowId: string): RetentionRule {
  const { flows, ...global } = policy;
  return { ...global, ...flows[flowId] };
}

export function isEmptyRule(rule: RetentionRule): boolean {
  return rule.keepDays === undefined && rule.keepRuns === undefined && rule.keepFailedDays === undefined;
}

/**
 * What applies while no policy was ever saved — on a fresh install and on an install upgraded from a
 * version that kept every run forever (n8n prunes by default too: 14 days, 10 000 executions). Saving a
 * policy with empty fields keeps runs forever again.
 */
export const DEFAULT_RETENTION: RetentionPolicy = Object.freeze({
  keepDays: 14,
  keepRuns: 10_000,
  flows: {},
});

/** Share of the storage budget from which the UI warns. */
export const BUDGET_WARNING_RATIO = 0.8;

/** Reads the stored policy; a missing setting means the default. */
export function parseStoredPolicy(value: unknown): RetentionPolicy {
  return value === undefined || value === null ? DEFAULT_RETENTION : RetentionPolicy.parse(value);
}
