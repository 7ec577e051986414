import type Database from "better-sqlite3";
import { sqlDate } from "../dates";

export interface RunVolume {
  /** Runs stored now. */
  total: number;
  /** Runs created in the 24 hours before `now` (whole hours: up to one hour more). */
  lastDay: number;
}

/** How many runs the database holds and how many arrived in the last day, from RunCount (no scan of Run). */
export function runVolume(sql: Database.Database, now: number): RunVolume {
  const since = sqlDate(now - 24 * 3_600_000).slice(0, 13);
  const row = sql
    .prepare(
      `SELECT coalesce(sum(n), 0) AS total, coalesce(sum(CASE WHEN hour >= ? THEN n ELSE 0 END), 0) AS lastDay FROM "RunCount"`,
    )
    .get(since) as RunVolume;
  return row;
}

/** Drops the RunCount rows that deletes brought to zero, so the table shrinks with retention. */
export function deleteEmptyRunCounts(sql: Database.Database): number {
  return sql.prepare(`DELETE FROM "RunCount" WHERE n = 0`).run().changes;
}
