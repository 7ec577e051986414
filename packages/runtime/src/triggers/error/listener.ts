import { errorTrigger } from "@switchyard/nodes";
import { defineTriggerListener } from "../listener";

/**
 * Nothing to listen on: an error flow is started by another flow's failed run (runs/error-flows.ts),
 * whether or not it is active.
 */
export const errorListener = defineTriggerListener({
  trigger: errorTrigger,
  bind() {},
  unbind() {},
});
