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

/** Reads the stored policy; a missing setting means "keep everything". */
export function parseStoredPolicy(value: unknown): RetentionPolicy {
  return RetentionPolicy.parse(value ?? {});
}
