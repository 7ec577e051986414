import { z } from "zod";
import { defineTrigger } from "../define";

/** Started by a person from the editor or the API; the payload is whatever they send. */
export const manualTrigger = defineTrigger({
  type: "trigger.manual",
  typeVersion: 1,
  title: "Manual",
  description: "Starts the flow when someone runs it from the editor or the API.",
  icon: "play",
  channel: "manual",
  config: z.object({
    samplePayload: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Sample payload used when the flow is run from the editor"),
  }),
  example: { samplePayload: { name: "Ada" } },
  payload: z.record(z.string(), z.unknown()).describe("The JSON object given when the run was started"),
});
