import { type CronPayload, cronMissed, cronOverlap } from "@switchyard/contracts/triggers";
import { z } from "zod";

/** One cron trigger node of one activated flow version. */
export const cronBindingSchema = z.object({
  flowId: z.string().min(1),
  flowVersion: z.number().int().nonnegative(),
  nodeId: z.string().min(1),
  expression: z.string(),
  /** IANA zone; the caller resolves the trigger's own zone or else the flow's. */
  timezone: z.string(),
  /** What a tick does while a previous run of the flow is still running. */
  overlap: cronOverlap.default("skip"),
  /** What start-up does about fires that fell into downtime. */
  missed: cronMissed.default("skip"),
});
export type CronBinding = z.output<typeof cronBindingSchema>;

/** Persisted per trigger: the last scheduled slot the scheduler took responsibility for. */
export interface CronStore {
  getLastFire(flowId: string, nodeId: string): Promise<Date | undefined>;
  setLastFire(flowId: string, nodeId: string, at: Date): Promise<void>;
}

/** The payload a scheduled run receives: exactly the schema the cron trigger declares. */
export type CronFirePayload = CronPayload;

export interface CronHealth {
  status: "listening" | "error";
  lastEventAt?: string;
  lastError?: string;
}
