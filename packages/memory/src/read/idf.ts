import type Database from "better-sqlite3";

/**
 * Word → BM25-style inverse document frequency over the whole store, counted through FTS5 so
 * the word is tokenised (stemmed) exactly as the index is. Used to weight query words only:
 * stored vectors stay independent of the corpus, so they never go stale as it grows.
 */
export function createIdf(db: Database.Database): (word: string) => number {
  const total = (db.prepare("SELECT count(*) AS n FROM items").get() as { n: number }).n;
  const df = db.prepare("SELECT count(*) AS n FROM items_fts WHERE items_fts MATCH ?");
  const cache = new Map<string, number>();
  return (word) => {
    let w = cache.get(word);
    if (w === undefined) {
      // Words are letters/digits only (see embed/text), so quoting is safe.
      const n = total === 0 ? 0 : (df.get(`"${word}"`) as { n: number }).n;
      w = Math.log(1 + (total - n + 0.5) / (n + 0.5));
      cache.set(word, w);
    }
    return w;
  };
}
