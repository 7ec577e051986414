import type { MqttPayload } from "@switchyard/contracts/triggers";
import { connectMqtt, mqttServer, mqttTarget, mqttTrigger } from "@switchyard/nodes";
import type { IPublishPacket } from "mqtt";
import type { z } from "zod";
import { type BrokerListenerDeps, decodeBody } from "../broker/deps";
import { superviseConnection, supervisedPerFlow } from "../broker/supervise";
import { defineTriggerListener, type TriggerBinding } from "../listener";

type MqttBinding = TriggerBinding<z.output<typeof mqttTrigger.config>>;

/** The stable client id of one flow's trigger: the broker keeps its session (and queued messages) under it. */
export const mqttClientId = (prefix: string, flowId: string, nodeId: string) =>
  `${prefix}-${flowId}-${nodeId}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 128);

export function payloadOf(packet: IPublishPacket, now: Date): MqttPayload {
  return {
    topic: packet.topic,
    message: decodeBody(Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload)),
    qos: packet.qos,
    retain: packet.retain,
    receivedAt: now.toISOString(),
  };
}

/**
 * One client per bound flow, in a persistent session (clean: false, a stable client id) subscribed with
 * QoS 1: the broker keeps messages published while the host was away and delivers them on reconnect.
 * A message's PUBACK is sent only after its run is durably admitted; a failed admission drops the
 * connection without acknowledging, so the broker delivers the message again after the reconnect.
 */
export function createMqttListener(d: BrokerListenerDeps) {
  const subscribe = (b: MqttBinding) =>
    superviseConnection({
      what: "trigger.mqtt",
      report: b.report,
      ...d.reconnect,
      async connect(lost) {
        const target = await mqttTarget({
          credentialId: b.config.credentialId,
          secrets: d.secrets,
          guard: d.guard,
          nodeId: b.nodeId,
        });
        let closing = false;
        const client = await connectMqtt(target, {
          clientId: mqttClientId(target.settings.clientIdPrefix, b.flowId, b.nodeId),
          clean: false,
          timeoutMs: 10_000,
          nodeId: b.nodeId,
          // MQTT.js sends the PUBACK when this resolves, and handles the next message after it.
          async handleMessage(packet) {
            try {
              await b.fire(payloadOf(packet, new Date()));
            } catch (err) {
              b.report({
                status: "error",
                lastError: `trigger.mqtt: a message on "${packet.topic}" was not admitted and will be redelivered: ${(err as Error).message}`,
              });
              // No PUBACK: reconnecting makes the broker deliver it again.
              if (!closing) client.end(true);
              throw err;
            }
          },
        });
        let why = `connection to ${mqttServer(target)} closed`;
        client.on("error", (err) => {
          why = `connection to ${mqttServer(target)} lost: ${err.message}`;
        });
        client.on("close", () => {
          if (!closing) lost(why);
        });
        try {
          const granted = await client.subscribeAsync(b.config.topic, { qos: b.config.qos });
          if (granted.some((g) => g.qos === 128))
            throw new Error(`${mqttServer(target)} refused the subscription to "${b.config.topic}"`);
        } catch (err) {
          closing = true;
          client.end(true);
          throw err;
        }
        return {
          async close() {
            closing = true;
            // Without unsubscribing: the session (and messages queued in it) waits for the next bind.
            await client.endAsync().catch(() => {});
          },
        };
      },
    });

  return defineTriggerListener({ trigger: mqttTrigger, ...supervisedPerFlow(subscribe) });
}
