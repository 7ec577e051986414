import type Database from "better-sqlite3";
import { contentWords } from "../embed/text";

export interface LexicalMatch {
  seq: number;
  /** bm25() value: lower (more negative) is better. */
  bm25: number;
}

/**
 * FTS5 query: every content word as a quoted term, OR-ed so bm25 rewards items matching more of
 * them. With `prefix`, words of 3+ letters become prefix terms ("invoic" finds "invoices").
 */
export function buildFtsQuery(query: string, prefix: boolean): string | null {
  const terms = [...new Set(contentWords(query))];
  if (terms.length === 0) return null;
  // Words are letters and digits only, so quoting cannot be broken out of.
  return terms.map((t) => (prefix && t.length >= 3 ? `"${t}"*` : `"${t}"`)).join(" OR ");
}

// Title matches count most, then tags, then the body; the thread name a little.
const WEIGHTS = "3.0, 1.0, 1.5, 0.5";

export type LexicalSearch = (query: string, namespace: string, k: number) => LexicalMatch[];

export function createLexicalSearch(db: Database.Database): LexicalSearch {
  const stmt = db.prepare(
    `SELECT items_fts.rowid AS seq, bm25(items_fts, ${WEIGHTS}) AS bm25
     FROM items_fts JOIN items ON items.seq = items_fts.rowid
     WHERE items_fts MATCH ? AND items.namespace = ?
     ORDER BY bm25 LIMIT ?`,
  );
  return (query, namespace, k) => {
    const exact = buildFtsQuery(query, false);
    if (exact === null) return [];
    const hits = stmt.all(exact, namespace, k) as LexicalMatch[];
    if (hits.length >= k) return hits;
    // Prefix fallback for partial words: appended after the whole-word hits, never ahead of them.
    const seen = new Set(hits.map((h) => h.seq));
    const fuzzy = buildFtsQuery(query, true);
    if (fuzzy === null || fuzzy === exact) return hits;
    for (const h of stmt.all(fuzzy, namespace, k) as LexicalMatch[]) {
      if (hits.length >= k) break;
      if (!seen.has(h.seq)) hits.push(h);
    }
    return hits;
  };
}
