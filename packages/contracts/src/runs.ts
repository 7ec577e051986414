/**
 * What a run is: the channel that started it and the statuses it and its steps go through. The
 * database stores these as plain strings; every package and the web app read the lists from here.
 */
import { z } from "zod";

/**
 * What started a run; also decides the agent tool policy ceiling. A `subflow` run was started by a
 * `flow.call` node of another run (its ceiling is its parent's channel). An `error` run was started by
 * another flow's failed run (its `settings.errorFlowId`); it never starts an error flow itself.
 */
export const runChannels = ["manual", "webhook", "email", "cron", "api", "subflow", "error"] as const;
export const RunChannel = z.enum(runChannels);
export type RunChannel = z.infer<typeof RunChannel>;

/** Every status a stored run can have, in the order a run goes through them. */
export const runStatuses = [
  "queued",
  "running",
  "waiting",
  "succeeded",
  "failed",
  "cancelled",
  "timed_out",
] as const;
export const RunStatus = z.enum(runStatuses);
export type RunStatus = z.infer<typeof RunStatus>;

/** Statuses of a run that is someone's work in progress. */
export const liveRunStatuses = ["queued", "running", "waiting"] as const satisfies readonly RunStatus[];

/** Statuses a run never leaves. */
export const finishedRunStatuses = [
  "succeeded",
  "failed",
  "cancelled",
  "timed_out",
] as const satisfies readonly RunStatus[];
export type FinishedRunStatus = (typeof finishedRunStatuses)[number];

/** Whether a run with this status is over (a stored status is a plain string, hence `string`). */
export function isFinishedRunStatus(status: string): status is FinishedRunStatus {
  return (finishedRunStatuses as readonly string[]).includes(status);
}

/** How a step (one visit of one node) ended; a step that is still running is not stored. */
export const stepStatuses = ["succeeded", "failed", "skipped", "waiting"] as const;
export const StepStatus = z.enum(stepStatuses);
export type StepStatus = z.infer<typeof StepStatus>;

/**
 * Runs that execute part of a flow (the editor's step runs and a failed run's retry). `node`: only the
 * target node runs, its input taken from pinned data or the last run; `until`: the target and what it
 * depends on; `retry`: a failed run again from the failed step, the steps that succeeded before reused.
 */
export const stepRunModes = ["node", "until", "retry"] as const;
export const StepRunMode = z.enum(stepRunModes);
export type StepRunMode = z.infer<typeof StepRunMode>;

/** Step reason of a checkpoint copied from an earlier run instead of being executed again. */
export const reusedStepReason = "reused";
