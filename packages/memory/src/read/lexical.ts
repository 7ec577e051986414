import type Database from "better-sqlite3";
import { contentWords } from "../embed/text";
import { nsToken } from "../store/schema";
import { DEFAULT_NAMESPACE } from "../types";
import type { WordStats } from "./idf";

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

/** bm25() weight of each indexed field (field boosts); the namespace token is a filter and weighs 0. */
export interface FieldWeights {
  key: number;
  content: number;
  tags: number;
  thread: number;
}

// Title matches count most, then tags, then the body; the thread name a little.
export const DEFAULT_FIELD_WEIGHTS: FieldWeights = { key: 3, content: 1, tags: 1.5, thread: 0.5 };

/**
 * When every word of a query is in more items than this, bm25 ranks only its newest this-many matches.
 * Scoring a match costs a doclist read and a size lookup, so a word in a third of 1 000 000 items would
 * cost a second; such a query is unselective anyway. One selective word (or any query on a small
 * store) and the ranking is exact over every match, so a rare word is never cut off by common ones.
 */
export const RANK_WINDOW = 2000;

/**
 * `terms`, when given, replaces the query's own words (query expansion): the words are OR-ed as they
 * are, with no prefix fallback.
 */
export type LexicalSearch = (query: string, namespace: string, k: number, terms?: string[]) => LexicalMatch[];

/**
 * FTS5 matches, ranks and limits; nothing but the k rows returned is read back into JavaScript.
 *
 * The namespace is filtered one of two ways, whichever reads less. bm25() counts every item that has
 * each phrase of the query, so the namespace token as a phrase costs one read per item of the
 * namespace: cheap for a flow's few hundred, not for "global" holding most of the store. A namespace
 * holding more than half of the items, and the default namespace (which has no token), is therefore
 * checked against `items` per match instead.
 */
export function createLexicalSearch(
  db: Database.Database,
  stats: () => WordStats,
  weights: FieldWeights = DEFAULT_FIELD_WEIGHTS,
): LexicalSearch {
  const w = [weights.key, weights.content, weights.tags, weights.thread, 0];
  if (!w.every((x) => Number.isFinite(x) && x >= 0))
    throw new RangeError("field weights must be finite and ≥ 0");
  const SELECT = `SELECT items_fts.rowid AS seq, bm25(items_fts, ${w.join(", ")}) AS bm25 FROM items_fts`;
  const byToken = {
    ranked: db.prepare(`${SELECT} WHERE items_fts MATCH ? ORDER BY bm25, seq LIMIT ?`),
    windowed: db.prepare(
      `SELECT * FROM (${SELECT} WHERE items_fts MATCH ? ORDER BY items_fts.rowid DESC LIMIT ${RANK_WINDOW})
       ORDER BY bm25, seq LIMIT ?`,
    ),
  };
  const JOIN = "JOIN items ON items.seq = items_fts.rowid WHERE items_fts MATCH ? AND items.namespace = ?";
  const byJoin = {
    ranked: db.prepare(`${SELECT} ${JOIN} ORDER BY bm25, seq LIMIT ?`),
    windowed: db.prepare(
      `SELECT * FROM (${SELECT} ${JOIN} ORDER BY items_fts.rowid DESC LIMIT ${RANK_WINDOW})
       ORDER BY bm25, seq LIMIT ?`,
    ),
  };

  const run = (terms: string, unselective: boolean, namespace: string, k: number): LexicalMatch[] => {
    const s = stats();
    const token = nsToken(namespace);
    const kind = unselective ? "windowed" : "ranked";
    // The default namespace has no token (see NS_TOKEN_SQL).
    if (namespace === DEFAULT_NAMESPACE || s.df(token) * 2 > s.total)
      return byJoin[kind].all(terms, namespace, k) as LexicalMatch[];
    return byToken[kind].all(`{ns_token}: ${token} AND (${terms})`, k) as LexicalMatch[];
  };

  return (query, namespace, k, terms) => {
    const s = stats();
    if (terms !== undefined) {
      // Only plain words can be quoted safely; the expansion vocabulary is lowercase ASCII anyway.
      const words = terms.filter((t) => /^[a-z0-9]+$/.test(t));
      if (words.length === 0) return [];
      const unselectiveTerms = words.every((w) => s.df(w) > RANK_WINDOW);
      return run(words.map((w) => `"${w}"`).join(" OR "), unselectiveTerms, namespace, k);
    }
    const exact = buildFtsQuery(query, false);
    if (exact === null) return [];
    const unselective = contentWords(query).every((w) => s.df(w) > RANK_WINDOW);
    const hits = run(exact, unselective, namespace, k);
    if (hits.length >= k) return hits;
    // Prefix fallback for partial words, only when whole words found too little: appended after the
    // whole-word hits, never ahead of them.
    const fuzzy = buildFtsQuery(query, true);
    if (fuzzy === null || fuzzy === exact) return hits;
    const seen = new Set(hits.map((h) => h.seq));
    for (const h of run(fuzzy, unselective, namespace, k)) {
      if (hits.length >= k) break;
      if (!seen.has(h.seq)) hits.push(h);
    }
    return hits;
  };
}
