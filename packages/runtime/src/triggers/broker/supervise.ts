import type { TriggerHealthUpdate } from "../listener";

/** A live connection of a trigger, as its supervisor holds it. */
export interface Supervised {
  close(): Promise<void>;
}

export interface SupervisorOptions {
  /** Connects and starts consuming; calls `lost` when the connection dies by itself later. */
  connect(lost: (why: string) => void): Promise<Supervised>;
  report(update: TriggerHealthUpdate): void;
  /** Prefixes every health error (the trigger type), so the flow list says what failed. */
  what: string;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** A connection attempt that has not settled by then counts as failed (a broker that accepts TCP but never answers). */
  attemptTimeoutMs?: number;
}

/** Reconnect delays: 0.5 s, 1 s, 2 s … up to 30 s, reset by a successful connection. */
export const RECONNECT = { minDelayMs: 500, maxDelayMs: 30_000, attemptTimeoutMs: 30_000 };

/**
 * Keeps one trigger's broker connection alive: connects, reports `listening`; after a failure or a lost
 * connection reports `error` with the reason and tries again with exponential backoff, until stopped.
 */
export function superviseConnection(o: SupervisorOptions) {
  const min = o.minDelayMs ?? RECONNECT.minDelayMs;
  const max = o.maxDelayMs ?? RECONNECT.maxDelayMs;
  let stopped = false;
  let current: Supervised | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let connecting: Promise<void> | undefined;

  const retry = (why: string) => {
    if (stopped) return;
    o.report({ status: "error", lastError: `${o.what}: ${why}` });
    const delay = Math.min(max, min * 2 ** failures);
    failures += 1;
    clearTimeout(timer);
    timer = setTimeout(() => {
      connecting = attempt();
    }, delay);
  };

  async function attempt(): Promise<void> {
    if (stopped) return;
    let mine: Supervised | undefined;
    let lostEarly: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attemptMs = o.attemptTimeoutMs ?? RECONNECT.attemptTimeoutMs;
    const connecting = o.connect((why) => {
      if (!mine) {
        lostEarly = why;
        return;
      }
      if (current !== mine) return;
      current = undefined;
      void mine.close().catch(() => {});
      retry(why);
    });
    try {
      mine = await Promise.race([
        connecting,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no connection after ${attemptMs} ms; trying again`)),
            attemptMs,
          );
        }),
      ]);
    } catch (e) {
      // A late connection of an attempt given up on is closed, never used.
      connecting.then((late) => late.close().catch(() => {})).catch(() => {});
      retry(e instanceof Error ? e.message : String(e));
      return;
    } finally {
      clearTimeout(timer);
    }
    if (stopped) {
      await mine.close().catch(() => {});
      return;
    }
    if (lostEarly !== undefined) {
      await mine.close().catch(() => {});
      retry(lostEarly);
      return;
    }
    current = mine;
    failures = 0;
    o.report({ status: "listening", lastError: undefined });
  }

  connecting = attempt();
  return {
    /** Stops reconnecting and closes the connection (unacknowledged messages go back to the broker). */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await connecting?.catch(() => {});
      const c = current;
      current = undefined;
      await c?.close().catch(() => {});
    },
    connected: () => current !== undefined,
  };
}

/**
 * One supervised connection per bound flow, for a broker trigger's listener: binding a flow again replaces
 * its connection, unbinding or closing stops it.
 */
export function supervisedPerFlow<B extends { flowId: string }>(
  start: (binding: B) => ReturnType<typeof superviseConnection>,
) {
  const byFlow = new Map<string, ReturnType<typeof superviseConnection>>();
  return {
    bind(b: B) {
      void byFlow.get(b.flowId)?.stop();
      byFlow.set(b.flowId, start(b));
    },
    unbind(flowId: string) {
      void byFlow.get(flowId)?.stop();
      byFlow.delete(flowId);
    },
    async close() {
      const all = [...byFlow.values()];
      byFlow.clear();
      await Promise.all(all.map((c) => c.stop()));
    },
    /** Flows with a live connection (tests). */
    connected: () => [...byFlow.entries()].filter(([, c]) => c.connected()).map(([id]) => id),
  };
}
