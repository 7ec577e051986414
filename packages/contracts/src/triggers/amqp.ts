/** The AMQP trigger's config and the payload its runs receive. */
import { z } from "zod";

export const amqpTriggerConfig = z.object({
  credentialId: z.string().min(1).describe("AMQP credential (host, port, vhost, user, password)"),
  queue: z.string().min(1).max(255).describe("Queue to consume (it must exist)"),
  prefetch: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(10)
    .describe("Messages held unacknowledged at once (each is acknowledged after its run is admitted)"),
});
export type AmqpTriggerConfig = z.infer<typeof amqpTriggerConfig>;

export const amqpPayload = z.strictObject({
  messageId: z
    .string()
    .describe("The message id property; when the publisher set none, a digest of the message (see the docs)"),
  content: z.unknown().describe("The body: parsed JSON when it parses, else the text"),
  headers: z.record(z.string(), z.unknown()).describe("The message headers"),
  exchange: z.string().describe('The exchange it was published to ("" for a queue directly)'),
  routingKey: z.string().describe("Its routing key"),
  redelivered: z.boolean().describe("True when the broker delivered it before (unacknowledged then)"),
  receivedAt: z.string().describe("ISO time (UTC) it arrived"),
});
export type AmqpPayload = z.infer<typeof amqpPayload>;
