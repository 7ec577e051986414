import { type Embedder, l2normalize } from "./embedder";
import { createQueryExpander, type ExpansionOptions } from "./expansion";
import { contentWords } from "./text";
import { createWordMatcher, type WordMatchOptions } from "./word-match";
import { loadWordVectors, type WordVectors } from "./word-vector-asset";

export interface WordVectorEmbedderOptions {
  /** Asset file; defaults to the committed `assets/word-vectors.bin`. */
  path?: string;
  /**
   * SIF smoothing `a` (Arora et al., 2017): a word weighs a / (a + p(word)), so very frequent words
   * count little. p comes from the word's frequency rank (Zipf), not from this store, so stored
   * vectors never depend on what else is stored.
   */
  sifA?: number;
  /** Scale every word vector to unit length before averaging (GloVe norms grow with frequency). */
  unitWords?: boolean;
  /** Settings of the word-by-word relevance used to re-rank candidates (see word-match.ts). */
  match?: WordMatchOptions;
  /** Settings of the query expansion (nearest words in the asset; see expansion.ts). */
  expansion?: ExpansionOptions;
}

/**
 * Local, network-free semantic embedder: SIF-weighted mean of GloVe word vectors (100 dimensions,
 * 50 000 words, int8; see assets/ACKNOWLEDGEMENT.md). It knows that "refund" and "money back" are
 * related; it knows nothing about word order, and words outside its vocabulary contribute nothing.
 * The asset is read on the first `embed` call, not at construction.
 */
export function createWordVectorEmbedder(options: WordVectorEmbedderOptions = {}): Embedder {
  const sifA = options.sifA ?? 1e-3;
  const unitWords = options.unitWords ?? false;
  const DIMS = 100;
  let table: WordVectors | null = null;
  let harmonic = 0;
  // Each row's length, worked out on first use (0 = not yet): the same value every time, once.
  let norms = new Float64Array(0);
  const load = () => {
    if (table === null) {
      table = loadWordVectors(options.path);
      if (table.dims !== DIMS)
        throw new Error(`word-vectors.bin has ${table.dims} dimensions, expected ${DIMS}`);
      // Zipf: p(rank r) = 1 / (r · H_n), H_n the n-th harmonic number.
      harmonic = Math.log(table.count) + 0.5772156649;
      norms = new Float64Array(table.count);
    }
    return table;
  };
  const normOf = (t: WordVectors, row: number, o: number) => {
    if (norms[row] === 0) {
      let sq = 0;
      for (let d = 0; d < DIMS; d++) sq += t.vectors[o + d]! * t.vectors[o + d]!;
      norms[row] = Math.sqrt(sq) || 1;
    }
    return norms[row]!;
  };

  const matcher = createWordMatcher(load, options.match);
  const expander = createQueryExpander(load, options.expansion);

  // Plural or third-person forms missing from the vocabulary fall back to the bare word.
  const rowOf = (t: WordVectors, word: string): number | undefined =>
    t.index.get(word) ?? (word.length > 3 && word.endsWith("s") ? t.index.get(word.slice(0, -1)) : undefined);

  const embedOne = (text: string, wordWeight?: (word: string) => number): Float32Array => {
    const t = load();
    const v = new Float32Array(DIMS);
    for (const w of contentWords(text)) {
      const row = rowOf(t, w);
      if (row === undefined) continue;
      const p = 1 / ((row + 1) * harmonic);
      const o = row * DIMS;
      const norm = unitWords ? normOf(t, row, o) : 1;
      const weight =
        ((sifA / (sifA + p)) * (wordWeight ? wordWeight(w) : 1)) / (unitWords ? norm : 1 / t.scales[row]!);
      for (let d = 0; d < DIMS; d++) v[d]! += t.vectors[o + d]! * weight;
    }
    return l2normalize(v);
  };

  return {
    id: `glove100-sif-v1${sifA === 1e-3 ? "" : `-a${sifA}`}${unitWords ? "-unit" : ""}@${DIMS}`,
    dimensions: DIMS,
    embed: async (texts) => texts.map((t) => embedOne(t)),
    embedQuery: async (text, wordWeight) => embedOne(text, wordWeight),
    relevance: async (query, texts, wordWeight) => matcher(query, texts, wordWeight),
    expand: async (query) => expander(query),
  };
}
