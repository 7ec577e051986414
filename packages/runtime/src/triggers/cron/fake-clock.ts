import type { Clock } from "./clock";

/** A virtual clock for tests: time only moves on advance(), which fires due timers in time order. */
export interface FakeClock extends Clock {
  /** Moves virtual time forward, firing every timer that falls due, and lets async work settle after each. */
  advance(ms: number): Promise<void>;
  /** Moves to an absolute time (ISO string or ms); never backwards. */
  advanceTo(at: string | number): Promise<void>;
  /** Lets pending promise chains settle without moving time. */
  settle(): Promise<void>;
  /** Number of armed timers. */
  pending(): number;
  /** The longest delay ever requested from setTimeout. */
  longestDelay(): number;
}

interface Timer {
  id: number;
  due: number;
  fn: () => void;
}

export function createFakeClock(start: string | number): FakeClock {
  let now = typeof start === "string" ? Date.parse(start) : start;
  let seq = 0;
  let longest = 0;
  const timers = new Map<number, Timer>();
  // One macrotask hop drains every microtask queued so far, including promise chains they spawn.
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

  const advanceTo = async (target: number) => {
    await settle();
    for (;;) {
      let next: Timer | undefined;
      for (const t of timers.values()) {
        if (t.due <= target && (!next || t.due < next.due || (t.due === next.due && t.id < next.id)))
          next = t;
      }
      if (!next) break;
      timers.delete(next.id);
      now = Math.max(now, next.due);
      next.fn();
      await settle();
    }
    now = Math.max(now, target);
    await settle();
  };

  return {
    now: () => now,
    setTimeout(fn, ms) {
      const delay = Math.max(0, ms);
      longest = Math.max(longest, delay);
      const id = ++seq;
      timers.set(id, { id, due: now + delay, fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance: (ms) => advanceTo(now + ms),
    advanceTo: (at) => advanceTo(typeof at === "string" ? Date.parse(at) : at),
    settle,
    pending: () => timers.size,
    longestDelay: () => longest,
  };
}
