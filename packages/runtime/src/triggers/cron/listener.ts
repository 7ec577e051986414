import { cronTrigger } from "@switchyard/nodes";
import type { z } from "zod";
import { type TriggerBinding, TriggerBindError, defineTriggerListener } from "../listener";
import { CronConfigError } from "./expression";
import { type CronSchedulerOptions, createCronScheduler } from "./scheduler";

type CronTriggerBinding = TriggerBinding<z.output<typeof cronTrigger.config>>;

/**
 * The schedule trigger: one scheduler for every cron trigger of the process. A trigger without its own
 * time zone runs in the flow's (its settings), which is checked only here, so a bad one is refused at
 * activation naming the trigger.
 */
export function createCronListener(o: Omit<CronSchedulerOptions, "fire" | "onHealth">) {
  const bound = new Map<string, CronTriggerBinding>();
  const scheduler = createCronScheduler({
    ...o,
    fire: async (b, payload) => {
      const live = bound.get(b.flowId);
      if (live?.flowVersion !== b.flowVersion)
        throw new Error(`flow ${b.flowId} version ${b.flowVersion} is no longer scheduled`);
      return live.fire(payload);
    },
    onHealth: (flowId, h) => bound.get(flowId)?.report(h),
  });
  return defineTriggerListener({
    trigger: cronTrigger,
    async bind(b) {
      bound.set(b.flowId, b);
      const { expression, overlap, missed } = b.config;
      const timezone = b.config.timezone ?? b.settings.timezone;
      const { flowId, flowVersion, nodeId } = b;
      await scheduler
        .bind({ flowId, flowVersion, nodeId, expression, timezone, overlap, missed })
        .catch((e: unknown) => {
          throw e instanceof CronConfigError ? new TriggerBindError(e.message) : e;
        });
    },
    unbind(flowId) {
      scheduler.unbind(flowId);
      bound.delete(flowId);
    },
    runFinished: (flowId) => scheduler.runFinished(flowId),
    close: () => scheduler.stop(),
  });
}
