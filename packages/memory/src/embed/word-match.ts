import { contentWords, stem } from "./text";
import type { WordVectors } from "./word-vector-asset";

export interface WordMatchOptions {
  /** Word-to-word cosines below this count as no match (noise floor of static word vectors). */
  minSimilarity?: number;
  /** Cosines are raised to this power before averaging: > 1 favours close matches over loose ones. */
  power?: number;
  /**
   * Judge each query word's match against the other texts of the same call (z-score per query word):
   * a word every text matches loosely ("okay", "big" at cosine ≈ 0.4 with anything) then counts for
   * little, and a match that stands out from that background counts for much. Needs a pool of texts
   * (the reader passes its candidates); with fewer than 3 texts the plain mean is used.
   */
  contrast?: boolean;
}

/** Scores each text against one query: 0..1, higher is more relevant. */
export type WordMatcher = (query: string, texts: string[], wordWeight?: (word: string) => number) => number[];

// Long transcripts are cut here: enough words to judge relevance, bounded cost per candidate.
const MAX_TEXT_WORDS = 2000;
// A query fragment this long that starts a text word counts as that word ("laminat" → "laminator").
const MIN_PREFIX = 4;
// Spelling closeness (Dice of padded character trigrams) from which two words count as variants of one
// another ("newsleter" ~ "newsletter" 0.7); below it shared trigrams are mostly coincidence.
const MIN_SPELLING = 0.5;

function trigrams(word: string): Set<string> {
  const padded = `<${word}>`;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

function dice(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const g of a) if (b.has(g)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/**
 * Late-interaction relevance with static word vectors (soft term matching, in the spirit of the
 * soft cosine measure and BERTScore recall): every query word takes its best match among the text's
 * words — 1 for the same stem or a partial word the text word starts with, otherwise the higher of
 * the two word vectors' cosine and, for a likely misspelling, the words' spelling closeness — and the
 * score is the weighted mean over query words (weights: IDF from the store). Unlike one averaged
 * sentence vector it does not blur a text's many topics together, so "giving money back" can align
 * with "refund" in a long note. Cost: O(query words × text words), which is why it re-ranks a
 * candidate pool instead of scanning the store.
 */
export function createWordMatcher(table: () => WordVectors, options: WordMatchOptions = {}): WordMatcher {
  const minSimilarity = options.minSimilarity ?? 0;
  const power = options.power ?? 1;
  const unitRows = new Map<number, Float32Array>();

  const unit = (t: WordVectors, row: number): Float32Array => {
    let v = unitRows.get(row);
    if (v === undefined) {
      v = new Float32Array(t.dims);
      let sq = 0;
      for (let d = 0; d < t.dims; d++) {
        const x = t.vectors[row * t.dims + d]!;
        v[d] = x;
        sq += x * x;
      }
      const inv = sq > 0 ? 1 / Math.sqrt(sq) : 0;
      for (let d = 0; d < t.dims; d++) v[d]! *= inv;
      unitRows.set(row, v);
    }
    return v;
  };
  // Same lookup as the word-vector embedder: a plural missing from the vocabulary uses the bare word.
  const rowOf = (t: WordVectors, word: string): number | undefined =>
    t.index.get(word) ?? (word.length > 3 && word.endsWith("s") ? t.index.get(word.slice(0, -1)) : undefined);

  return (query, texts, wordWeight) => {
    const t = table();
    const qs = [...new Set(contentWords(query))].map((w) => {
      const row = rowOf(t, w);
      return {
        word: w,
        stem: stem(w),
        grams: trigrams(w),
        weight: wordWeight ? wordWeight(w) : 1,
        vec: row === undefined ? null : unit(t, row),
      };
    });
    const total = qs.reduce((s, q) => s + q.weight, 0);
    if (qs.length === 0 || total <= 0) return texts.map(() => 0);

    // A word's closeness to each query word does not depend on the text it is in: work it out once per
    // distinct word across all the texts (candidate pools share most of their vocabulary).
    const memo = new Map<string, Float64Array>();
    const closeness = (w: string): Float64Array => {
      let sims = memo.get(w);
      if (sims !== undefined) return sims;
      sims = new Float64Array(qs.length);
      const s = stem(w);
      const row = rowOf(t, w);
      const vec = row === undefined ? null : unit(t, row);
      let grams: Set<string> | null = null;
      for (let i = 0; i < qs.length; i++) {
        const q = qs[i]!;
        if (q.stem === s || (q.word.length >= MIN_PREFIX && w.startsWith(q.word))) {
          sims[i] = 1;
          continue;
        }
        // Misspellings: only for words of similar length, where a typo is plausible.
        if (Math.abs(q.word.length - w.length) <= 2) {
          grams ??= trigrams(w);
          const spelling = dice(q.grams, grams);
          if (spelling >= MIN_SPELLING && spelling > sims[i]!) sims[i] = spelling;
        }
        if (q.vec === null || vec === null) continue;
        let sim = 0;
        for (let d = 0; d < vec.length; d++) sim += q.vec[d]! * vec[d]!;
        if (sim > sims[i]!) sims[i] = sim;
      }
      memo.set(w, sims);
      return sims;
    };

    const matrix = texts.map((text) => {
      const best = new Float64Array(qs.length);
      const seen = new Set<string>();
      for (const w of contentWords(text).slice(0, MAX_TEXT_WORDS)) {
        if (seen.has(w)) continue;
        seen.add(w);
        const sims = closeness(w);
        for (let i = 0; i < qs.length; i++) if (sims[i]! > best[i]!) best[i] = sims[i]!;
      }
      for (let i = 0; i < qs.length; i++) {
        const sim = best[i]! >= minSimilarity ? best[i]! : 0;
        best[i] = sim ** power;
      }
      return best;
    });
    if (!options.contrast || texts.length < 3) {
      return matrix.map((best) => qs.reduce((sum, q, i) => sum + q.weight * best[i]!, 0) / total);
    }
    // Per query word: how far above the pool's typical match this text's match lies, in pool standard
    // deviations; the weighted mean of those is squashed to 0..1 (0.5 = an average candidate).
    const stats = qs.map((_, i) => {
      let sum = 0;
      let sq = 0;
      for (const best of matrix) {
        sum += best[i]!;
        sq += best[i]! ** 2;
      }
      const mean = sum / matrix.length;
      return { mean, sd: Math.sqrt(Math.max(sq / matrix.length - mean ** 2, 0)) };
    });
    return matrix.map((best) => {
      let z = 0;
      for (let i = 0; i < qs.length; i++) {
        const { mean, sd } = stats[i]!;
        z += qs[i]!.weight * (sd > 1e-9 ? (best[i]! - mean) / sd : 0);
      }
      return 1 / (1 + Math.exp(-z / total));
    });
  };
}
