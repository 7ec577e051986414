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

  const slot = (h: number) => h % dimensions;
  const sign = (h: number) => (h & 0x80000000 ? -1 : 1);

  // What a word contributes never depends on its neighbours (only the bigram does), so its stem and
  // hashed features are worked out once per distinct word: most of a text's words were seen before.
  interface WordFeatures {
    stem: string;
    slot: number;
    sign: number;
    gramSlots: Int32Array;
    gramSigns: Int8Array;
  }
  const cache = new Map<string, WordFeatures>();
  const CACHE_LIMIT = 50_000;
  const featuresOf = (w: string): WordFeatures => {
    let f = cache.get(w);
    if (f) return f;
    const s = stem(w);
    const h = hash(`w:${s}`);
    const padded = `<${w}>`;
    const grams: number[] = [];
    for (const n of [3, 4])
      for (let i = 0; i + n <= padded.length; i++) grams.push(hash(`c:${padded.slice(i, i + n)}`));
    f = {
      stem: s,
      slot: slot(h),
      sign: sign(h),
      gramSlots: Int32Array.from(grams, slot),
      gramSigns: Int8Array.from(grams, sign),
    };
    // A bounded cache: past the limit (a huge vocabulary) start over rather than grow without end.
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(w, f);
    return f;
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
      v[f.slot]! += f.sign < 0 ? -(WORD_WEIGHT * weight) : WORD_WEIGHT * weight;
      if (previous !== null) {
        const h = hash(`b:${previous.stem} ${f.stem}`);
        const b = BIGRAM_WEIGHT * Math.sqrt(previous.weight * weight);
        v[slot(h)]! += sign(h) < 0 ? -b : b;
      }
      previous = { stem: f.stem, weight };
      const each = (CHAR_WEIGHT * weight) / Math.sqrt(f.gramSlots.length);
      for (let i = 0; i < f.gramSlots.length; i++) v[f.gramSlots[i]!]! += f.gramSigns[i]! < 0 ? -each : each;
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
