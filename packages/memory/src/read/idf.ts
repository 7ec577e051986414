import type Database from "better-sqlite3";

/**
 * Matches read to count a word's document frequency. Up to this many the count is exact; past it the
 * word is common and its frequency is extrapolated from where its last sampled match lies among the
 * item seqs, so a word in a third of 1 000 000 items costs what one in 2 000 does.
 */
export const DF_SAMPLE = 2000;

/**
 * Word → document frequency and BM25-style inverse document frequency over the whole store, counted through FTS5 so
 * the word is tokenised (stemmed) exactly as the index is. Used to weight query words only:
 * stored vectors stay independent of the corpus, so they never go stale as it grows.
 *
 * Call the returned function once per query: it reuses counts until another connection commits
 * (`PRAGMA data_version`), so repeated words and the item count cost nothing between writes.
 */
export interface WordStats {
  /** Inverse document frequency (BM25 form). */
  idf(word: string): number;
  /** Items containing the word: exact up to DF_SAMPLE, extrapolated above. */
  df(word: string): number;
  /** Items in the store. */
  total: number;
}

export function createWordStats(db: Database.Database): () => WordStats {
  const dataVersion = db.prepare("PRAGMA data_version").pluck();
  // Kept by triggers (store/schema.ts): count(*) would read an index of every item.
  const countItems = db.prepare("SELECT n FROM item_count WHERE id = 1").pluck();
  const lastSeq = db.prepare("SELECT max(seq) FROM items").pluck();
  const firstMatches = db
    .prepare(`SELECT rowid FROM items_fts WHERE items_fts MATCH ? LIMIT ${DF_SAMPLE}`)
    .pluck();
  let version: unknown = null;
  let total = 0;
  let top = 0;
  const cache = new Map<string, number>();

  const df = (word: string): number => {
    let n = cache.get(word);
    if (n === undefined) {
      n = 0;
      if (total > 0) {
        // Words are letters/digits only (see embed/text), so quoting is safe.
        const seqs = firstMatches.all(`"${word}"`) as number[];
        n =
          seqs.length < DF_SAMPLE ? seqs.length : Math.min(total, (DF_SAMPLE * top) / seqs[seqs.length - 1]!);
      }
      cache.set(word, n);
    }
    return n;
  };
  const stats: WordStats = {
    df,
    total: 0,
    idf: (word) => {
      const n = df(word);
      return Math.log(1 + (total - n + 0.5) / (n + 0.5));
    },
  };

  return () => {
    const now = dataVersion.get();
    if (now !== version) {
      version = now;
      cache.clear();
      total = (countItems.get() as number | undefined) ?? 0;
      stats.total = total;
      top = (lastSeq.get() as number | null) ?? 0;
    }
    return stats;
  };
}
