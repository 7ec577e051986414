import { errorPayload, errorTriggerConfig } from "@switchyard/contracts/triggers";
import { defineTrigger } from "../define";

/** Starts when a run of a flow that names this flow as its error flow fails (flow settings). */
export const errorTrigger = defineTrigger({
  type: "trigger.error",
  typeVersion: 1,
  title: "Error",
  description: "Starts the flow when a run of a flow that names it as its error flow fails.",
  icon: "alert",
  channel: "error",
  config: errorTriggerConfig,
  example: {},
  payload: errorPayload,
});
