import { randomUUID } from "node:crypto";
import type { RunProgressEvent } from "@switchyard/engine";
import { Redis } from "ioredis";
import type { RunFinished } from "../events";
import type { WebhookResponse } from "../triggers/webhook/handler";

/** What crosses processes: live steps, finished runs, sync webhook answers and cancel requests. */
export interface BusMessages {
  "run.event": RunProgressEvent;
  "run.finished": RunFinished;
  "run.response": { runId: string; response: WebhookResponse };
  "run.cancel": { runId: string };
  /** A flow was activated, deactivated or saved in one process: the others rebind its triggers. */
  "flow.sync": { flowId: string };
}
type Topic = keyof BusMessages;

export interface RunBus {
  publish<T extends Topic>(topic: T, message: BusMessages[T]): void;
  /** `mine` is true for messages this process published itself. */
  on<T extends Topic>(topic: T, fn: (message: BusMessages[T], mine: boolean) => void): void;
  /** Remembers a cancel request for a day, so a worker that missed the message still sees it. */
  requestCancel(runId: string): Promise<void>;
  /** The runs among `runIds` someone asked to cancel. */
  cancelled(runIds: string[]): Promise<Set<string>>;
  redis: Redis;
  close(): Promise<void>;
}

/**
 * Redis pub/sub between the web and worker processes. Messages are fire-and-forget (a process that is
 * down misses them): everything durable is in PostgreSQL, and cancel requests are also kept as keys.
 */
export function createRunBus(url: string, prefix = "switchyard"): RunBus {
  const pub = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
  const sub = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
  const channel = `${prefix}:bus`;
  const origin = randomUUID();
  const handlers = new Map<Topic, ((m: unknown, mine: boolean) => void)[]>();
  let subscribed = false;
  sub.on("message", (_ch: string, raw: string) => {
    const m = JSON.parse(raw) as { topic: Topic; message: unknown; origin: string };
    for (const fn of handlers.get(m.topic) ?? []) fn(m.message, m.origin === origin);
  });
  // ioredis logs reconnect errors itself when nobody listens; the start-up check reports the first one.
  pub.on("error", () => {});
  sub.on("error", () => {});
  const cancelKey = (runId: string) => `${prefix}:cancel:${runId}`;
  return {
    publish(topic, message) {
      void pub.publish(channel, JSON.stringify({ topic, message, origin })).catch(() => {});
    },
    on(topic, fn) {
      if (!subscribed) {
        subscribed = true;
        void sub.subscribe(channel);
      }
      handlers.set(topic, [...(handlers.get(topic) ?? []), fn as (m: unknown, mine: boolean) => void]);
    },
    async requestCancel(runId) {
      await pub.set(cancelKey(runId), "1", "EX", 86_400);
      this.publish("run.cancel", { runId });
    },
    async cancelled(runIds) {
      if (runIds.length === 0) return new Set();
      const values = await pub.mget(...runIds.map(cancelKey));
      return new Set(runIds.filter((_, i) => values[i] !== null));
    },
    redis: pub,
    async close() {
      sub.disconnect();
      pub.disconnect();
    },
  };
}
