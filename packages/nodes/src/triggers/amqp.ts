import { amqpPayload, amqpTriggerConfig } from "@switchyard/contracts/triggers";
import { defineTrigger } from "../define";

/**
 * Consumes a RabbitMQ (AMQP 0-9-1) queue with manual acknowledgement: a message is acknowledged only
 * after its run is durably admitted, so a crash redelivers it; a redelivery whose message id already
 * started a run is acknowledged without starting another.
 */
export const amqpTrigger = defineTrigger({
  type: "trigger.amqp",
  typeVersion: 1,
  title: "AMQP message",
  description: "Starts the flow for each message on a RabbitMQ (AMQP 0-9-1) queue.",
  icon: "layers",
  // An untrusted message from the network, like a webhook request: same channel, same agent policy.
  channel: "webhook",
  config: amqpTriggerConfig,
  example: { credentialId: "cred-amqp", queue: "orders", prefetch: 10 },
  payload: amqpPayload,
});
