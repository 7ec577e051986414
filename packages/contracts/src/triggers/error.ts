/**
 * The error trigger: a flow that starts when another flow's run fails (that flow's settings name it in
 * `errorFlowId`). Its runs take channel `error`; the payload carries data from the failed run, which may
 * have come from a hostile sender, so the channel's default agent ceiling is read_only.
 */
import { z } from "zod";

export const errorTriggerConfig = z.object({});
export type ErrorTriggerConfig = z.infer<typeof errorTriggerConfig>;

/** What an error flow's trigger item holds: which run failed, where, why, and where to read it. */
export const errorPayload = z.strictObject({
  flow: z.strictObject({
    id: z.string().describe("Id of the flow whose run failed"),
    name: z.string().describe("Its name"),
  }),
  run: z.strictObject({
    id: z.string().describe("Id of the failed run"),
    status: z.enum(["failed", "timed_out"]).describe("How it ended"),
    channel: z.string().describe("What started it (webhook, cron, …)"),
    url: z.string().describe("Link to the run's page"),
  }),
  node: z
    .strictObject({ id: z.string().describe("Id of the node that failed") })
    .nullable()
    .describe("The failed node, or null when the run failed before any node (a timeout, a broken flow)"),
  error: z.strictObject({
    code: z.string().describe("Error code, e.g. http_failed"),
    message: z.string().describe("What went wrong"),
  }),
});
export type ErrorPayload = z.infer<typeof errorPayload>;
