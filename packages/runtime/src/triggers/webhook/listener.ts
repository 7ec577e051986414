import { webhookTrigger } from "@switchyard/nodes";
import { defineTriggerListener } from "../listener";
import type { HookRegistry } from "./registry";

/**
 * Binds webhook paths in the registry the HTTP handler serves. The handler admits runs itself (it needs
 * idempotency keys, inline runs and sync answers), so this listener never calls `fire`.
 */
export function createWebhookListener(hooks: HookRegistry) {
  return defineTriggerListener({
    trigger: webhookTrigger,
    bind: ({ flowId, flowVersion, nodeId, config }) => hooks.bind({ flowId, flowVersion, nodeId, config }),
    unbind: (flowId) => hooks.unbind(flowId),
  });
}
