import type { AmqpPayload } from "@switchyard/contracts/triggers";
import {
  amqpServer,
  amqpTarget,
  amqpTrigger,
  brokerMessage,
  closeAmqp,
  connectAmqp,
} from "@switchyard/nodes";
import type { ConsumeMessage } from "amqplib";
import type { z } from "zod";
import { type BrokerListenerDeps, decodeBody } from "../broker/deps";
import { superviseConnection, supervisedPerFlow } from "../broker/supervise";
import { defineTriggerListener, type TriggerBinding } from "../listener";

type AmqpBinding = TriggerBinding<z.output<typeof amqpTrigger.config>>;

/** How long a message id is remembered: a redelivery later than this starts a run again. */
export const AMQP_DEDUPE_TTL_MS = 7 * 24 * 3600_000;

/** How long a message whose admission failed waits before it goes back to the queue. */
const NACK_DELAY_MS = 1000;

/** Headers as JSON can carry them (AMQP tables may hold Buffers, dates and 64-bit numbers). */
function plainHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(headers ?? {}, (_k, v) =>
      typeof v === "bigint" ? v.toString() : Buffer.isBuffer(v) ? v.toString("utf8") : v,
    ),
  ) as Record<string, unknown>;
}

export function payloadOf(msg: ConsumeMessage, now: Date): AmqpPayload {
  const id = msg.properties.messageId;
  return {
    messageId: typeof id === "string" ? id : "",
    content: decodeBody(msg.content),
    headers: plainHeaders(msg.properties.headers as Record<string, unknown> | undefined),
    exchange: msg.fields.exchange,
    routingKey: msg.fields.routingKey,
    redelivered: msg.fields.redelivered,
    receivedAt: now.toISOString(),
  };
}

/**
 * One consumer per bound flow, on its own connection. Each message is acknowledged only after its run
 * is durably admitted (the admission's COMMIT); a failed admission gives it back to the queue. A crash
 * anywhere before the ack leaves it unacknowledged, so the broker redelivers it; the redelivery's message
 * id finds the run already admitted (the run queue's idempotency keys) and is acknowledged without a
 * second run.
 */
export function createAmqpListener(d: BrokerListenerDeps) {
  const consume = (b: AmqpBinding) =>
    superviseConnection({
      what: "trigger.amqp",
      report: b.report,
      ...d.reconnect,
      async connect(lost) {
        const target = await amqpTarget({
          credentialId: b.config.credentialId,
          secrets: d.secrets,
          guard: d.guard,
          nodeId: b.nodeId,
        });
        const conn = await connectAmqp(target, { timeoutMs: 10_000, nodeId: b.nodeId });
        let closing = false;
        let why = "the connection closed";
        conn.on("error", (err: Error) => {
          why = `connection to ${amqpServer(target)} lost: ${brokerMessage(err)}`;
        });
        conn.on("close", () => {
          if (!closing) lost(why);
        });
        try {
          const ch = await conn.createChannel();
          ch.on("error", (err: Error) => {
            why = brokerMessage(err);
          });
          ch.on("close", () => {
            if (!closing) lost(why);
          });
          await ch.checkQueue(b.config.queue).catch((err: unknown) => {
            throw new Error(`queue "${b.config.queue}" on ${amqpServer(target)}: ${brokerMessage(err)}`);
          });
          await ch.prefetch(b.config.prefetch);
          const onMessage = async (msg: ConsumeMessage | null) => {
            // null: the broker cancelled the consumer (the queue was deleted).
            if (!msg) {
              why = `the broker cancelled the consumer of queue "${b.config.queue}"`;
              void closeAmqp(conn);
              return;
            }
            const payload = payloadOf(msg, new Date());
            try {
              await b.fire(
                payload,
                payload.messageId
                  ? { dedupe: { key: `amqp:${payload.messageId}`, ttlMs: AMQP_DEDUPE_TTL_MS } }
                  : undefined,
              );
            } catch (err) {
              b.report({
                status: "error",
                lastError: `trigger.amqp: message ${payload.messageId || "(no id)"} not admitted, returned to the queue: ${(err as Error).message}`,
              });
              // Given back after a pause: a failure that persists must not spin through the queue.
              setTimeout(() => {
                if (!closing) safely(() => ch.nack(msg, false, true));
              }, NACK_DELAY_MS).unref();
              return;
            }
            // After COMMIT: a crash before this line redelivers the message, and its id is then known.
            safely(() => ch.ack(msg));
          };
          await ch.consume(b.config.queue, (m) => void onMessage(m), { noAck: false });
        } catch (err) {
          closing = true;
          await closeAmqp(conn);
          throw err;
        }
        return {
          async close() {
            closing = true;
            // Unacknowledged messages go back to the queue when the connection closes.
            await closeAmqp(conn);
          },
        };
      },
    });

  return defineTriggerListener({ trigger: amqpTrigger, ...supervisedPerFlow(consume) });
}

/** An ack or nack on a channel that closed meanwhile throws; the broker redelivers the message anyway. */
function safely(f: () => void) {
  try {
    f();
  } catch {}
}
