import type { MqttClient } from "mqtt";
import { z } from "zod";
import { defineNode } from "../define";
import { NodeError, notConfigured } from "../errors";
import { guardOf } from "../util/broker-target";
import { connectMqtt, mqttServer, mqttTarget, publisherClientId } from "./client";
import { serverTimeoutMs } from "../connections/server";

/** Objects and numbers are sent as JSON; a string as it is. */
export const messageBytes = (message: unknown) =>
  Buffer.from(typeof message === "string" ? message : JSON.stringify(message ?? null));

/** An idle publisher connection closes after this long (a new run opens a new one). */
const IDLE_MS = 30_000;

/** Publishes one MQTT message per item; done when the broker acknowledged it (PUBACK for QoS 1). */
export const mqttPublishNode = defineNode({
  type: "mqtt.publish",
  typeVersion: 1,
  title: "MQTT publish",
  description: "Publishes a message to an MQTT broker topic.",
  category: "communication",
  icon: "radio",
  ports: ["main"],
  runMode: "perItem",
  config: z.object({
    credentialId: z.string().min(1).describe("MQTT credential (host, port, user, password)"),
    topic: z
      .string()
      .min(1)
      .max(65_535)
      .refine((t) => !/[+#]/.test(t), "a topic to publish to cannot contain + or # (those are for filters)")
      .describe("Topic to publish to"),
    message: z.unknown().describe("Message: a string is sent as it is, anything else as JSON"),
    qos: z
      .union([z.literal(0), z.literal(1), z.literal(2)])
      .default(1)
      .describe("0: at most once; 1: at least once (waits for PUBACK); 2: exactly once"),
    retain: z.boolean().default(false).describe("The broker keeps it as the topic's last message"),
    timeoutMs: serverTimeoutMs("Connect and acknowledge"),
  }),
  example: { credentialId: "cred-mqtt", topic: "sensors/kitchen", message: { temperature: 21.5 }, qos: 1 },
  async execute({ config, ctx }) {
    if (!ctx.connections) throw notConfigured("Shared connections", ctx.nodeId);
    const target = await mqttTarget({
      credentialId: config.credentialId,
      secrets: ctx.secrets,
      guard: guardOf(ctx),
      nodeId: ctx.nodeId,
    });
    const lease = await ctx.connections.acquire<MqttClient>(target.key, {
      open: async (lost) => {
        const client = await connectMqtt(target, {
          clientId: publisherClientId(target),
          clean: true,
          timeoutMs: config.timeoutMs,
          nodeId: ctx.nodeId,
        });
        client.once("close", lost);
        return client;
      },
      close: (client) => client.endAsync(),
      idleMs: IDLE_MS,
    });
    const client = lease.connection;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const fail = (why: string, cause?: unknown) =>
      new NodeError("service_failed", `MQTT publish to "${config.topic}" on ${mqttServer(target)} ${why}`, {
        nodeId: ctx.nodeId,
        cause,
      });
    try {
      const published = client.publishAsync(config.topic, messageBytes(config.message), {
        qos: config.qos,
        retain: config.retain,
      });
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(fail(`was not acknowledged within ${config.timeoutMs} ms`)),
          config.timeoutMs,
        );
      });
      const aborted = new Promise<never>((_, reject) =>
        ctx.signal.addEventListener(
          "abort",
          () => reject(new NodeError("cancelled", "publishing cancelled", { nodeId: ctx.nodeId })),
          { once: true },
        ),
      );
      await Promise.race([published, timeout, aborted]).catch((err: unknown) => {
        throw err instanceof NodeError ? err : fail(`failed: ${(err as Error).message}`, err);
      });
      lease.release();
    } catch (err) {
      lease.discard();
      throw err;
    } finally {
      clearTimeout(timer);
    }
    // QoS 0 has no acknowledgement: "sent" is all the broker tells.
    return {
      items: [
        {
          json: { topic: config.topic, qos: config.qos, retain: config.retain, acknowledged: config.qos > 0 },
        },
      ],
    };
  },
});
