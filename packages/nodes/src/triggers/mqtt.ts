import { mqttPayload, mqttTriggerConfig } from "@switchyard/contracts/triggers";
import { defineTrigger } from "../define";

/**
 * Subscribes to an MQTT topic filter with QoS 1 in a persistent session: messages published while the
 * host was briefly away arrive after it reconnects. A message is acknowledged once its run is admitted.
 */
export const mqttTrigger = defineTrigger({
  type: "trigger.mqtt",
  typeVersion: 1,
  title: "MQTT message",
  description: "Starts the flow for each message published to a topic (filter) on an MQTT broker.",
  icon: "radio",
  // An untrusted message from the network, like a webhook request: same channel, same agent policy.
  channel: "webhook",
  config: mqttTriggerConfig,
  example: { credentialId: "cred-mqtt", topic: "sensors/+/temperature", qos: 1 },
  payload: mqttPayload,
});
