import type Database from "better-sqlite3";
import { sqlDate } from "../dates";

export interface RunVolume {
  /** Runs stored now. */
  total: number;
  /** Runs created in the 24 hours before `now` (whole hours: up to one hour more). */
  lastDay: number;
}

/** How many runs the database holds and how many arrived in the last day, from the counters (no scan of Run). */
export function runVolume(sql: Database.Database, now: number): RunVolume {
  const since = sqlDate(now - 24 * 3_600_000).slice(0, 13);
  const total = sql.prepare(`SELECT coalesce(sum(n), 0) FROM "RunTotal"`).pluck().get() as number;
  const lastDay = sql
    .prepare(`SELECT coalesce(sum(n), 0) FROM "RunCount" WHERE hour >= ?`)
    .pluck()
    .get(since) as number;
  return { total, lastDay };
}

/** Drops the counter rows that deletes brought to zero, so the tables shrink with retention. */
export function deleteEmptyRunCounts(sql: Database.Database): number {
  return (
    sql.prepare(`DELETE FROM "RunCount" WHERE n = 0`).run().changes +
    sql.prepare(`DELETE FROM "RunTotal" WHERE n = 0`).run().changes
  );
}
