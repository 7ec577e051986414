/**
 * Concurrent calls with the same key share one in-flight promise. Besides saving work, this keeps a
 * burst of identical lookups from being batched by Prisma into one query with more parameters than
 * SQLite accepts ("query parameter limit exceeded" at ~1000 concurrent findUnique calls).
 */
export function coalesce<A extends unknown[], R>(
  key: (...args: A) => string,
  fn: (...args: A) => Promise<R>,
) {
  const inflight = new Map<string, Promise<R>>();
  return (...args: A): Promise<R> => {
    const k = key(...args);
    const hit = inflight.get(k);
    if (hit) return hit;
    const p = fn(...args).finally(() => inflight.delete(k));
    inflight.set(k, p);
    return p;
  };
}
