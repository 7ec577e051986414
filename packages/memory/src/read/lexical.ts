import type Database from "better-sqlite3";
import { contentWords } from "../embed/text";
import { nsToken, RECENT_ITEMS } from "../store/schema";
import { DEFAULT_NAMESPACE } from "../types";
import type { WordStats } from "./idf";

export interface LexicalMatch {
  seq: number;
  /** bm25() value: lower (more negative) is better. */
  bm25: number;
}

/**
 * FTS5 query: every word as a quoted term, OR-ed so bm25 rewards items matching more of them. With `prefix`,
 * words of 3+ letters become prefix terms ("invoic" finds "invoices"). Words are letters and digits only
 * (see embed/text), so quoting cannot be broken out of.
 */
const phrases = (words: string[], prefix: boolean) =>
  words.map((t) => (prefix && t.length >= 3 ? `"${t}"*` : `"${t}"`)).join(" OR ");

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
 * A word in more items than this is common: bm25 never scores every one of its matches. Scoring a match costs a
 * doclist read and a size lookup, so a word in a third of 1 000 000 items would cost a second; such a word is
 * unselective anyway. When every word of a query is common, bm25 ranks only the query's newest this-many
 * matches. When some are and some are not, the rare words' matches are ranked exactly, by the rare words alone
 * (so a rare word is never cut off by common ones), and only if they are fewer than asked for do the newest
 * matches of the whole query follow them. On a small store every word is rare and the ranking exact.
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
  // One statement set per full-text index: `items_fts` holds every item, `items_fts_recent` the newest.
  const statements = (table: string) => {
    const SELECT = `SELECT ${table}.rowid AS seq, bm25(${table}, ${w.join(", ")}) AS bm25 FROM ${table}`;
    const WINDOW = `ORDER BY ${table}.rowid DESC LIMIT ${RANK_WINDOW}`;
    const JOIN = `JOIN items ON items.seq = ${table}.rowid WHERE ${table} MATCH ? AND items.namespace = ?`;
    // `n`: how many matches the window held (a full window is RANK_WINDOW).
    const windowed = (inner: string) =>
      db.prepare(`SELECT seq, bm25, count(*) OVER () AS n FROM (${inner}) ORDER BY bm25, seq LIMIT ?`);
    return {
      byToken: {
        ranked: db.prepare(`${SELECT} WHERE ${table} MATCH ? ORDER BY bm25, seq LIMIT ?`),
        windowed: windowed(`${SELECT} WHERE ${table} MATCH ? ${WINDOW}`),
      },
      byJoin: {
        ranked: db.prepare(`${SELECT} ${JOIN} ORDER BY bm25, seq LIMIT ?`),
        windowed: windowed(`${SELECT} ${JOIN} ${WINDOW}`),
      },
    };
  };
  const every = statements("items_fts");
  const newest = statements("items_fts_recent");

  type Match = LexicalMatch & { n?: number };
  const rankIn = (
    index: typeof every,
    terms: string,
    unselective: boolean,
    namespace: string,
    k: number,
  ): Match[] => {
    const s = stats();
    const token = nsToken(namespace);
    const kind = unselective ? "windowed" : "ranked";
    // The default namespace has no token (see NS_TOKEN_SQL).
    if (namespace === DEFAULT_NAMESPACE || s.df(token) * 2 > s.total)
      return index.byJoin[kind].all(terms, namespace, k) as Match[];
    return index.byToken[kind].all(`{ns_token}: ${token} AND (${terms})`, k) as Match[];
  };

  /**
   * `postings`: how many rows bm25() would count for the query's phrases (their document frequencies summed).
   * Where that is a large share of a store bigger than the recent index, the newest RANK_WINDOW matches are
   * very likely all among the newest RECENT_ITEMS, and are ranked there, with bm25's statistics of those
   * items. A recent index short of a full window means older items hold some of the newest matches: then the
   * whole index ranks them.
   */
  const run = (terms: string, unselective: boolean, namespace: string, k: number, postings = 0) => {
    const s = stats();
    let hits: Match[] | null = null;
    if (unselective && s.total > RECENT_ITEMS && postings * RECENT_ITEMS >= 2 * RANK_WINDOW * s.total) {
      hits = rankIn(newest, terms, true, namespace, k);
      if ((hits[0]?.n ?? 0) < RANK_WINDOW) hits = null;
    }
    hits ??= rankIn(every, terms, unselective, namespace, k);
    return hits.map(({ seq, bm25 }): LexicalMatch => ({ seq, bm25 }));
  };

  // Appends `more` after `hits` (skipping any already there) until there are k.
  const fill = (hits: LexicalMatch[], more: LexicalMatch[], k: number) => {
    const seen = new Set(hits.map((h) => h.seq));
    for (const h of more) {
      if (hits.length >= k) break;
      if (!seen.has(h.seq)) hits.push(h);
    }
    return hits;
  };

  // Whole words: see RANK_WINDOW for how rare and common words are ranked.
  const postings = (words: string[]) => words.reduce((n, w) => n + stats().df(w), 0);
  const wholeWords = (words: string[], namespace: string, k: number) => {
    const rare = words.filter((w) => stats().df(w) <= RANK_WINDOW);
    if (rare.length === 0) return run(phrases(words, false), true, namespace, k, postings(words));
    const hits = run(phrases(rare, false), false, namespace, k);
    if (hits.length >= k || rare.length === words.length) return hits;
    return fill(hits, run(phrases(words, false), true, namespace, k, postings(words)), k);
  };

  return (query, namespace, k, terms) => {
    if (terms !== undefined) {
      // Only plain words can be quoted safely; the expansion vocabulary is lowercase ASCII anyway.
      const words = [...new Set(terms.filter((t) => /^[a-z0-9]+$/.test(t)))];
      return words.length === 0 ? [] : wholeWords(words, namespace, k);
    }
    const words = [...new Set(contentWords(query))];
    if (words.length === 0) return [];
    const hits = wholeWords(words, namespace, k);
    if (hits.length >= k) return hits;
    // Prefix fallback for partial words, only when whole words found too little: appended after the
    // whole-word hits, never ahead of them.
    const fuzzy = phrases(words, true);
    if (fuzzy === phrases(words, false)) return hits;
    const s = stats();
    // A prefix matches at least what its word does: with a common word in it, only the newest are ranked.
    // (Its postings are at least its words'.)
    const common = words.some((w) => s.df(w) > RANK_WINDOW);
    return fill(hits, run(fuzzy, common, namespace, k, postings(words)), k);
  };
}
