import { contentWords, isStopword, stem } from "./text";
import type { WordVectors } from "./word-vector-asset";

export interface ExpansionOptions {
  /** Neighbours kept per query word. */
  neighbours?: number;
  /** Word-vector cosine from which a neighbour counts as a related word. */
  minSimilarity?: number;
  /**
   * Only the this-many most frequent words of the asset are candidates: rarer words are mostly names and
   * misspellings, and the bound keeps one look-up at ≈ `vocabulary × 100` int8 multiplications.
   */
  vocabulary?: number;
}

export interface ExpansionTerm {
  word: string;
  /** Cosine to the query word it came from (0..1). */
  similarity: number;
  /** The query word it expands. */
  from: string;
}

/** Related words for a query's content words (never the query's own words or their stems). */
export type QueryExpander = (query: string) => ExpansionTerm[];

// Neighbour lists are a pure function of the asset; a bounded cache makes repeated words free.
const CACHE_WORDS = 4096;

/**
 * Query expansion from the shipped word vectors: each content word of the query brings its nearest
 * neighbours in GloVe space ("pictures" → photographs, photos; "taxes" → tax, income), found by exact
 * cosine over the most frequent words of the asset. The reader searches the full-text index for them as
 * a separate, lower-weighted list, so an item that says "photograph" can be found for "pictures"
 * without the expansion outranking the words the person actually typed.
 */
export function createQueryExpander(table: () => WordVectors, options: ExpansionOptions = {}): QueryExpander {
  const neighbours = options.neighbours ?? 5;
  const minSimilarity = options.minSimilarity ?? 0.6;
  let inverseNorms: Float32Array | null = null;
  let words: string[] = [];
  const cache = new Map<string, ExpansionTerm[]>();

  const prepare = (t: WordVectors) => {
    if (inverseNorms !== null) return inverseNorms;
    const n = Math.min(options.vocabulary ?? 30_000, t.count);
    inverseNorms = new Float32Array(n);
    for (let r = 0; r < n; r++) {
      let sq = 0;
      for (let d = 0; d < t.dims; d++) sq += t.vectors[r * t.dims + d]! ** 2;
      inverseNorms[r] = sq > 0 ? 1 / Math.sqrt(sq) : 0;
    }
    words = [...t.index.keys()].slice(0, n);
    return inverseNorms;
  };

  const neighboursOf = (t: WordVectors, word: string): ExpansionTerm[] => {
    const cached = cache.get(word);
    if (cached) return cached;
    const norms = prepare(t);
    const row = t.index.get(word);
    let out: ExpansionTerm[] = [];
    if (row !== undefined) {
      const dims = t.dims;
      const v = t.vectors;
      const q = row * dims;
      let qsq = 0;
      for (let d = 0; d < dims; d++) qsq += v[q + d]! ** 2;
      const qInv = qsq > 0 ? 1 / Math.sqrt(qsq) : 0;
      const own = stem(word);
      const best: Array<{ r: number; s: number }> = [];
      for (let r = 0; r < norms.length; r++) {
        if (r === row) continue;
        let dotp = 0;
        const o = r * dims;
        for (let d = 0; d < dims; d++) dotp += v[q + d]! * v[o + d]!;
        const s = dotp * qInv * norms[r]!;
        if (s < minSimilarity) continue;
        if (best.length === neighbours * 3 && s <= best[best.length - 1]!.s) continue;
        best.push({ r, s });
        best.sort((a, b) => b.s - a.s);
        if (best.length > neighbours * 3) best.pop();
      }
      // Forms of the query word itself add nothing the stemmed index does not already match.
      out = best
        .map(({ r, s }) => ({ word: words[r]!, similarity: s, from: word }))
        .filter(
          (x) => !isStopword(x.word) && x.word.length >= 3 && !/^\d/.test(x.word) && stem(x.word) !== own,
        )
        .slice(0, neighbours);
    }
    if (cache.size >= CACHE_WORDS) cache.delete(cache.keys().next().value!);
    cache.set(word, out);
    return out;
  };

  return (query) => {
    const t = table();
    const asked = [...new Set(contentWords(query))];
    const askedStems = new Set(asked.map(stem));
    const seen = new Set<string>();
    const out: ExpansionTerm[] = [];
    for (const w of asked) {
      for (const x of neighboursOf(t, w)) {
        if (seen.has(x.word) || askedStems.has(stem(x.word))) continue;
        seen.add(x.word);
        out.push(x);
      }
    }
    return out;
  };
}
