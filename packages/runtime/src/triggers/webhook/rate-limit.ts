/** Token bucket per key: `perMinute` calls, refilled continuously. */
export function createRateLimiter(now: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    /** Returns 0 when allowed, else the seconds to wait. */
    take(key: string, perMinute: number): number {
      const t = now();
      const b = buckets.get(key) ?? { tokens: perMinute, at: t };
      b.tokens = Math.min(perMinute, b.tokens + ((t - b.at) / 60_000) * perMinute);
      b.at = t;
      buckets.set(key, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil(((1 - b.tokens) * 60) / perMinute));
    },
    forget(key: string) {
      buckets.delete(key);
    },
  };
}
