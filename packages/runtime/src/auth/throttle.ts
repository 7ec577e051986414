/** How sign-in attempts are limited for one kind of key (an e-mail address or a client IP). */
export interface ThrottleRule {
  /** Consecutive failed attempts allowed before a lockout starts. */
  threshold: number;
  /** Lockout after the threshold-th failure; it doubles with each further failure. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultRules = {
  email: { threshold: 5, baseDelayMs: 1_000, maxDelayMs: 15 * 60_000 },
  // Many people can share one IP (an office NAT), so the IP rule starts later.
  ip: { threshold: 20, baseDelayMs: 1_000, maxDelayMs: 15 * 60_000 },
} satisfies Record<string, ThrottleRule>;

interface Entry {
  failures: number;
  lockedUntil: number;
  lastAt: number;
}

/** `locks` is true on the attempt that starts a lockout (if it fails), so callers can record it once. */
export type ThrottleCheck = { allowed: true; locks: boolean } | { allowed: false; retryAfterMs: number };

/**
 * In-memory failure counter with exponential lockout. An attempt counts as a failure as soon as it
 * starts (synchronously), so parallel guesses cannot all slip past the check while passwords hash;
 * a success clears the count.
 */
export function createThrottle(rule: ThrottleRule, now: () => number = Date.now, maxEntries = 10_000) {
  const entries = new Map<string, Entry>();
  const forgetAfterMs = Math.max(rule.maxDelayMs * 2, 60 * 60_000);

  // Oldest activity first (Map order): drop stale entries, and the least recent ones beyond the cap.
  const prune = (t: number) => {
    for (const [key, e] of entries) {
      if (entries.size <= maxEntries && t - e.lastAt < forgetAfterMs) break;
      entries.delete(key);
    }
  };

  return {
    /** Refuses while locked; otherwise records the attempt as a failure until `succeeded` says otherwise. */
    attempt(key: string): ThrottleCheck {
      const t = now();
      const e = entries.get(key);
      if (e && e.lockedUntil > t) return { allowed: false, retryAfterMs: e.lockedUntil - t };
      const failures = (e && t - e.lastAt < forgetAfterMs ? e.failures : 0) + 1;
      const over = failures - rule.threshold;
      const lockedUntil =
        over >= 0 ? t + Math.min(rule.maxDelayMs, rule.baseDelayMs * 2 ** Math.min(over, 30)) : 0;
      // Re-insert so the Map's order stays "least recently active first" for pruning.
      entries.delete(key);
      entries.set(key, { failures, lockedUntil, lastAt: t });
      prune(t);
      return { allowed: true, locks: lockedUntil > 0 };
    },
    succeeded(key: string) {
      entries.delete(key);
    },
    failures(key: string): number {
      return entries.get(key)?.failures ?? 0;
    },
    get size() {
      return entries.size;
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
