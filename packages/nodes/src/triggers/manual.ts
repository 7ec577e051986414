import { manualConfig, runPayload } from "@switchyard/contracts/triggers";
import { defineTrigger } from "../define";

/** Started by a person from the editor or the API; the payload is whatever they send. */
export const manualTrigger = defineTrigger({
  type: "trigger.manual",
  typeVersion: 1,
  title: "Manual",
  description: "Starts the flow when someone runs it from the editor or the API.",
  icon: "play",
  channel: "manual",
  config: manualConfig,
  example: { samplePayload: { name: "Ada" } },
  payload: runPayload,
});
