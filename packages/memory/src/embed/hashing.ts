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

  const add = (v: Float32Array, feature: string, weight: number) => {
    const h = hash(feature);
    // Signed hashing: collisions cancel out on average instead of piling up.
    v[h % dimensions]! += h & 0x80000000 ? -weight : weight;
  };

  const embedOne = (text: string, wordWeight?: (word: string) => number): Float32Array => {
    const v = new Float32Array(dimensions);
    const ws = contentWords(text);
    let previous: { stem: string; weight: number } | null = null;
    for (const w of ws) {
      const s = stem(w);
      const weight = wordWeight ? wordWeight(w) : 1;
      add(v, `w:${s}`, WORD_WEIGHT * weight);
      if (previous !== null)
        add(v, `b:${previous.stem} ${s}`, BIGRAM_WEIGHT * Math.sqrt(previous.weight * weight));
      previous = { stem: s, weight };
      const padded = `<${w}>`;
      const grams: string[] = [];
      for (const n of [3, 4]) for (let i = 0; i + n <= padded.length; i++) grams.push(padded.slice(i, i + n));
      const each = (CHAR_WEIGHT * weight) / Math.sqrt(grams.length);
      for (const g of grams) add(v, `c:${g}`, each);
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
