/** The MQTT trigger's config and the payload its runs receive. */
import { z } from "zod";

/** A topic filter: `+` stands for one whole level, `#` for the rest and only as the last level. */
export const mqttTopicFilter = z
  .string()
  .min(1)
  .max(65_535)
  .refine(
    (f) =>
      f.split("/").every((level, i, all) => {
        if (level.includes("#")) return level === "#" && i === all.length - 1;
        return !level.includes("+") || level === "+";
      }),
    "use + for one whole level and # only as the last level, e.g. sensors/+/temperature or sensors/#",
  );

export const mqttTriggerConfig = z.object({
  credentialId: z.string().min(1).describe("MQTT credential (host, port, user, password)"),
  topic: mqttTopicFilter.describe("Topic filter to subscribe to (+ one level, # the rest)"),
  qos: z.literal(1).default(1).describe("Subscription QoS: 1, at least once (acknowledged after admission)"),
});
export type MqttTriggerConfig = z.infer<typeof mqttTriggerConfig>;

export const mqttPayload = z.strictObject({
  topic: z.string().describe("The topic the message was published to"),
  message: z.unknown().describe("The message: parsed JSON when it parses, else the text"),
  qos: z.number().int().min(0).max(2).describe("The QoS it was delivered with"),
  retain: z.boolean().describe("True for a retained message delivered on subscribe"),
  receivedAt: z.string().describe("ISO time (UTC) it arrived"),
});
export type MqttPayload = z.infer<typeof mqttPayload>;
