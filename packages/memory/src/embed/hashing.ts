import { type Embedder, l2normalize } from "./embedder";
import { contentWords, stem } from "./text";

export interface HashingEmbedderOptions {
  dimensions?: number;
}

// 32-bit FNV-1a over a feature string, then a final avalanche so low bits are usable as an index.
function hash(feature: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    h ^= feature.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.6;
// Character n-grams of one word share this much weight in total, so long words don't dominate.
const CHAR_WEIGHT = 0.8;

/**
 * Local, network-free embedder: feature hashing of stemmed word unigrams, word bigrams and
 * character 3/4-grams into a signed vector, L2-normalised. It measures surface similarity
 * (shared words, word forms, fragments, typos) — it knows no synonyms. See README.
 */
export function createHashingEmbedder(options: HashingEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 384;
  if (!Number.isInteger(dimensions) || dimensions < 16)
    throw new RangeError("dimensions must be an integer ≥ 16");

  // What a word contributes never depends on its neighbours (only the bigram does), so its stem and
  // hashed features are worked out once per distinct word: most of a text's words were seen before.
  // Each feature is kept as ±(slot + 1), the sign being the hash's; small integers keep the cache light.
  interface WordFeatures {
    stem: string;
    word: number;
    grams: number[];
  }
  const cache = new Map<string, WordFeatures>();
  // Bounded: a long tail of one-off words (ids, numbers) empties it instead of growing it without end.
  const CACHE_LIMIT = 20_000;
  const signedSlot = (h: number) => (h & 0x80000000 ? -1 : 1) * ((h % dimensions) + 1);
  const featuresOf = (w: string): WordFeatures => {
    let f = cache.get(w);
    if (f) return f;
    const s = stem(w);
    const padded = `<${w}>`;
    const grams: number[] = [];
    for (const n of [3, 4])
      for (let i = 0; i + n <= padded.length; i++)
        grams.push(signedSlot(hash(`c:${padded.slice(i, i + n)}`)));
    f = { stem: s, word: signedSlot(hash(`w:${s}`)), grams };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(w, f);
    return f;
  };
  const addAt = (v: Float32Array, feature: number, weight: number) => {
    if (feature < 0) v[-feature - 1]! += -weight;
    else v[feature - 1]! += weight;
  };

  // Signed hashing: collisions cancel out on average instead of piling up. The additions happen in
  // the same order as ever (word, bigram, then character n-grams), so vectors are bit-for-bit the same.
  const embedOne = (text: string, wordWeight?: (word: string) => number): Float32Array => {
    const v = new Float32Array(dimensions);
    const ws = contentWords(text);
    let previous: { stem: string; weight: number } | null = null;
    for (const w of ws) {
      const f = featuresOf(w);
      const weight = wordWeight ? wordWeight(w) : 1;
      addAt(v, f.word, WORD_WEIGHT * weight);
      if (previous !== null)
        addAt(
          v,
          signedSlot(hash(`b:${previous.stem} ${f.stem}`)),
          BIGRAM_WEIGHT * Math.sqrt(previous.weight * weight),
        );
      previous = { stem: f.stem, weight };
      const each = (CHAR_WEIGHT * weight) / Math.sqrt(f.grams.length);
      for (const g of f.grams) addAt(v, g, each);
    }
    return l2normalize(v);
  };

  return {
    id: `hashing-v1@${dimensions}`,
    dimensions,
    embed: async (texts) => texts.map((t) => embedOne(t)),
    embedQuery: async (text, wordWeight) => embedOne(text, wordWeight),
  };
}
