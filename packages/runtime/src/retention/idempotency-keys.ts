import type Database from "better-sqlite3";
import { sqlDate } from "@switchyard/db";

export interface KeyPurgeReport {
  deleted: number;
  /** Longest single delete transaction, in ms. */
  longestSliceMs: number;
}

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes idempotency keys whose window has passed. Every webhook call with an idempotency key and every
 * AMQP message adds one, and admission only ever replaces a key it sees again, so without this the table
 * grows by one row per message forever. An expired key is worth nothing: admission treats it as absent.
 *
 * The table has no index on `expiresAt` (one would cost every keyed admission a second index write), so
 * the purge walks it in rowid slices, one short transaction each, yielding the event loop between them.
 */
export async function purgeExpiredIdempotencyKeys(
  sql: Database.Database,
  o: { now: number; slice?: number; pause?: () => Promise<void>; stopped?: () => boolean },
): Promise<KeyPurgeReport> {
  const slice = o.slice ?? 5_000;
  const pause = o.pause ?? yieldLoop;
  const lastOfSlice = sql
    .prepare(
      `SELECT max(rowid) FROM (SELECT rowid FROM "IdempotencyKey" WHERE rowid > ? ORDER BY rowid LIMIT ?)`,
    )
    .pluck();
  const purge = sql.prepare(`DELETE FROM "IdempotencyKey" WHERE rowid > ? AND rowid <= ? AND expiresAt <= ?`);
  const cutoff = sqlDate(o.now);
  const report: KeyPurgeReport = { deleted: 0, longestSliceMs: 0 };
  let after = 0;
  for (;;) {
    const t0 = performance.now();
    const last = sql.transaction(() => {
      const upTo = lastOfSlice.get(after, slice) as number | null;
      if (upTo !== null) report.deleted += purge.run(after, upTo, cutoff).changes;
      return upTo;
    })();
    report.longestSliceMs = Math.max(report.longestSliceMs, performance.now() - t0);
    if (last === null || o.stopped?.()) return report;
    after = last;
    await pause();
  }
}
