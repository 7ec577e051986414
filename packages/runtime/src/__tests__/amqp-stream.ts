import { closeAmqp } from "@switchyard/nodes";
import amqp, { type ChannelModel, type ConfirmChannel } from "amqplib";

/**
 * A broker being killed or restarted can accept a TCP connection and never answer the AMQP handshake, or
 * never confirm a batch: without a bound, a test waits out its own 10-minute timeout instead of retrying.
 */
const connect = (url: string) => amqp.connect(url, { timeout: 10_000 });
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * Publishes messages `m-0` … `m-{count-1}` ({"i": n}, persistent) to a durable queue in confirmed
 * batches, like an at-least-once producer: a batch the broker did not confirm (it died) is published
 * again once the broker is back, with the same message ids.
 */
export async function publishStream(o: {
  url: string;
  queue: string;
  count: number;
  batch?: number;
  /** Called after each confirmed batch with how many are confirmed so far. */
  onConfirmed?: (n: number) => void | Promise<void>;
}): Promise<{ republishedBatches: number }> {
  const batch = o.batch ?? 50;
  let pub: { conn: ChannelModel; ch: ConfirmChannel } | undefined;
  let republishedBatches = 0;
  for (let from = 0; from < o.count; ) {
    try {
      if (!pub) {
        const conn = await connect(o.url);
        // A broker that dies emits 'error' on the connection; unheard it would crash the test process.
        conn.on("error", () => {});
        try {
          const ch = await within(30_000, "a confirm channel", conn.createConfirmChannel());
          ch.on("error", () => {});
          await within(30_000, "the queue's declaration", ch.assertQueue(o.queue, { durable: true }));
          pub = { conn, ch };
        } catch (err) {
          await closeAmqp(conn);
          throw err;
        }
      }
      for (let i = from; i < Math.min(o.count, from + batch); i++)
        pub.ch.sendToQueue(o.queue, Buffer.from(JSON.stringify({ i })), {
          persistent: true,
          messageId: `m-${i}`,
        });
      await within(30_000, "the broker's confirms", pub.ch.waitForConfirms());
      from += batch;
      await o.onConfirmed?.(Math.min(from, o.count));
    } catch {
      republishedBatches += 1;
      if (pub) await closeAmqp(pub.conn);
      pub = undefined;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  if (pub) await closeAmqp(pub.conn);
  return { republishedBatches };
}

/** Declares a durable queue (a throwaway connection). */
export async function declareDurable(url: string, queue: string) {
  const conn = await connect(url);
  conn.on("error", () => {});
  try {
    await (await conn.createChannel()).assertQueue(queue, { durable: true });
  } finally {
    await closeAmqp(conn);
  }
}

/** How many messages wait in the queue and how many consumers it has (a throwaway connection). */
export async function queueState(url: string, queue: string) {
  const conn = await connect(url);
  conn.on("error", () => {});
  try {
    const ch = await conn.createChannel();
    const q = await ch.checkQueue(queue);
    return { messages: q.messageCount, consumers: q.consumerCount };
  } finally {
    await closeAmqp(conn);
  }
}

/** Message ids of runs, counted: `m-7 → 1`. */
export function countIds(payloads: Record<string, unknown>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of payloads) counts.set(String(p.messageId), (counts.get(String(p.messageId)) ?? 0) + 1);
  return counts;
}

/** Deletes a queue (a throwaway connection); for tests that declared one on the shared broker. */
export async function deleteQueue(url: string, queue: string) {
  const conn = await connect(url);
  conn.on("error", () => {});
  try {
    await (await conn.createChannel()).deleteQueue(queue);
  } finally {
    await closeAmqp(conn);
  }
}
