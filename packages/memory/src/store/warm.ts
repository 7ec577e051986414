import type Database from "better-sqlite3";

// The tables the read tools reach into at random, with the column that makes SQLite read each row's page:
// the int8 vector codes (every semantic query reads hundreds of rows) and both full-text indexes with their
// per-row lengths (lexical queries and the query words' IDF).
const TABLES = [
  ["items_vec_q8", "q"],
  ["items_fts_data", "block"],
  ["items_fts_docsize", "sz"],
  ["items_fts_recent_data", "block"],
  ["items_fts_recent_docsize", "sz"],
] as const;

/**
 * Reads those tables once, in order, so the OS holds them in its page cache before the first query. A fresh
 * process on a store whose pages had left the cache fetched them one random page at a time instead: at
 * 1 000 000 items `memory_recall`'s first 300 queries took 21.6 / 50.9 ms (p50 / p99) instead of 4.6 / 15.8, and
 * at 100 000 items the first balanced queries 51 ms at p99 instead of 23 (probes after dropping the page cache).
 * Process memory is not touched: SQLite reads through its own small cache into the OS's, which may let the pages
 * go again under pressure. Tables the store does not have (no int8 copy with sqlite-vec) are skipped. `codes` is
 * how many int8 codes there are (null without the copy), counted on the way.
 */
export function warmReadPages(db: Database.Database): { bytes: number; codes: number | null } {
  const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all());
  let bytes = 0;
  let codes: number | null = null;
  for (const [table, column] of TABLES) {
    if (!present.has(table)) continue;
    const r = db
      .prepare(`SELECT count(*) AS n, coalesce(sum(length(${column})), 0) AS b FROM ${table}`)
      .get() as {
      n: number;
      b: number;
    };
    bytes += r.b;
    if (table === "items_vec_q8") codes = r.n;
  }
  return { bytes, codes };
}
