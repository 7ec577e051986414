import { randomUUID } from "node:crypto";
import type { ChannelModel, ConfirmChannel, Message } from "amqplib";
import { z } from "zod";
import { defineNode } from "../define";
import { NodeError, notConfigured } from "../errors";
import { messageBytes } from "../mqtt/publish";
import { guardOf } from "../util/broker-target";
import { type AmqpTarget, amqpServer, amqpTarget, brokerMessage, closeAmqp, connectAmqp } from "./client";
import { serverTimeoutMs } from "../connections/server";

/** An idle publisher connection closes after this long (a new run opens a new one). */
const IDLE_MS = 30_000;

/** One connection and its confirm channel, shared by every amqp.publish using the credential. */
interface Publisher {
  conn: ChannelModel;
  channel: ConfirmChannel;
  /** Why the channel or connection closed, as the broker said it (a publish to a missing exchange). */
  closedBecause?: string;
  /** Publishes the broker returned as unroutable, by message id, until their confirm arrives. */
  returned: Map<string, (m: Message) => void>;
}

async function openPublisher(t: AmqpTarget, timeoutMs: number, nodeId: string, lost: () => void) {
  const conn = await connectAmqp(t, { timeoutMs, nodeId });
  const p: Publisher = { conn, channel: undefined as unknown as ConfirmChannel, returned: new Map() };
  conn.on("error", (err: Error) => {
    p.closedBecause ??= brokerMessage(err);
  });
  conn.on("close", lost);
  p.channel = await conn.createConfirmChannel();
  p.channel.on("error", (err: Error) => {
    p.closedBecause ??= brokerMessage(err);
  });
  p.channel.on("close", lost);
  p.channel.on("return", (m: Message) => {
    const id = m.properties.messageId as string | undefined;
    if (id) p.returned.get(id)?.(m);
  });
  return p;
}

const config = z
  .object({
    credentialId: z.string().min(1).describe("AMQP credential (host, port, vhost, user, password)"),
    mode: z
      .enum(["queue", "exchange"])
      .default("queue")
      .describe("Send straight to a queue, or through an exchange"),
    queue: z.string().min(1).max(255).optional().describe("Queue to send to (mode queue)"),
    declareQueue: z
      .boolean()
      .default(false)
      .describe("Mode queue: create the queue (durable) when it does not exist, as n8n's RabbitMQ node does"),
    exchange: z.string().min(1).max(255).optional().describe("Exchange to publish to (mode exchange)"),
    routingKey: z.string().max(255).optional().describe("Routing key (mode exchange; default empty)"),
    message: z.unknown().describe("Message: a string is sent as it is, anything else as JSON"),
    persistent: z
      .boolean()
      .default(true)
      .describe("The broker writes it to disk (survives a broker restart)"),
    headers: z.record(z.string(), z.string()).optional().describe("Message headers"),
    messageId: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("Message id (a consumer's duplicate check); a random one when empty"),
    timeoutMs: serverTimeoutMs("Connect and confirm"),
  })
  .refine((c) => c.mode !== "queue" || c.queue !== undefined, { message: "name the queue", path: ["queue"] })
  .refine((c) => c.mode !== "exchange" || c.exchange !== undefined, {
    message: "name the exchange",
    path: ["exchange"],
  });

/**
 * Publishes one message per item on a confirm channel: done when the broker confirmed it (for a
 * persistent message to a durable queue, once it is on disk). A message no queue takes is an error.
 */
export const amqpPublishNode = defineNode({
  type: "amqp.publish",
  typeVersion: 1,
  title: "AMQP publish",
  description: "Publishes a message to a RabbitMQ (AMQP 0-9-1) queue or exchange, with publisher confirms.",
  category: "communication",
  icon: "layers",
  ports: ["main"],
  runMode: "perItem",
  config,
  example: { credentialId: "cred-amqp", mode: "queue", queue: "orders", message: { orderId: 42 } },
  async execute({ config, ctx }) {
    if (!ctx.connections) throw notConfigured("Shared connections", ctx.nodeId);
    const target = await amqpTarget({
      credentialId: config.credentialId,
      secrets: ctx.secrets,
      guard: guardOf(ctx),
      nodeId: ctx.nodeId,
    });
    const exchange = config.mode === "queue" ? "" : config.exchange!;
    const routingKey = config.mode === "queue" ? config.queue! : (config.routingKey ?? "");
    const where =
      config.mode === "queue"
        ? `queue "${config.queue}"`
        : `exchange "${exchange}" (routing key "${routingKey}")`;
    const fail = (why: string, cause?: unknown, retryable = true) =>
      new NodeError("service_failed", `AMQP publish to ${where} on ${amqpServer(target)} ${why}`, {
        nodeId: ctx.nodeId,
        retryable,
        cause,
      });
    const lease = await ctx.connections.acquire<Publisher>(target.key, {
      open: (lost) => openPublisher(target, config.timeoutMs, ctx.nodeId, lost),
      close: (p) => closeAmqp(p.conn),
      idleMs: IDLE_MS,
    });
    const p = lease.connection;
    if (config.mode === "queue" && config.declareQueue) {
      try {
        await p.channel.assertQueue(config.queue!, { durable: true });
      } catch (err) {
        // The broker closes the channel when the queue exists with other settings: not reused.
        lease.discard();
        throw fail(`failed: the queue could not be declared (${(err as Error).message})`, err, false);
      }
    }
    const messageId = config.messageId ?? randomUUID();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        let unroutable = false;
        p.returned.set(messageId, (m) => {
          unroutable = true;
          void m;
        });
        timer = setTimeout(
          () => reject(fail(`was not confirmed within ${config.timeoutMs} ms`)),
          config.timeoutMs,
        );
        onAbort = () => reject(new NodeError("cancelled", "publishing cancelled", { nodeId: ctx.nodeId }));
        ctx.signal.addEventListener("abort", onAbort, { once: true });
        p.channel.publish(
          exchange,
          routingKey,
          messageBytes(config.message),
          {
            persistent: config.persistent,
            mandatory: true,
            messageId,
            timestamp: Math.floor(ctx.now().getTime() / 1000),
            contentType: typeof config.message === "string" ? "text/plain" : "application/json",
            ...(config.headers ? { headers: config.headers } : {}),
          },
          (err: unknown) => {
            // The broker sends basic.return before the confirm, so `unroutable` is settled here.
            if (err)
              reject(
                fail(
                  p.closedBecause ? `failed: ${p.closedBecause}` : `was refused by the broker (nack)`,
                  err,
                ),
              );
            else if (unroutable)
              reject(
                fail(
                  config.mode === "queue"
                    ? "was returned: no such queue"
                    : "was returned: no queue is bound for that routing key",
                  undefined,
                  false,
                ),
              );
            else resolve();
          },
        );
      });
      lease.release();
    } catch (err) {
      // A closed channel is not reused; a returned message leaves the channel healthy.
      if (p.closedBecause) lease.discard();
      else lease.release();
      throw err;
    } finally {
      clearTimeout(timer);
      if (onAbort) ctx.signal.removeEventListener("abort", onAbort);
      p.returned.delete(messageId);
    }
    return {
      items: [
        {
          json: { messageId, exchange, routingKey, persistent: config.persistent, confirmed: true },
        },
      ],
    };
  },
});
