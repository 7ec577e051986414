import type { ExpansionTerm } from "./expansion";

/** Turns texts into fixed-length vectors. Implementations must be deterministic per `id`. */
export interface Embedder {
  /** Identifies the vector space: rows embedded under another id are re-embedded. */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * Optional, for embedders built from word features: embed a query with each word scaled by
   * `wordWeight` (the store passes an IDF from its full-text index so rare words count more).
   */
  embedQuery?(text: string, wordWeight: (word: string) => number): Promise<Float32Array>;
  /**
   * Optional, for embedders built from word vectors: relevance of each text to the query (0..1),
   * judged word by word (late interaction) rather than by one cosine of averaged vectors. The reader
   * uses it to re-rank a candidate pool; it never touches stored vectors.
   */
  relevance?(query: string, texts: string[], wordWeight: (word: string) => number): Promise<number[]>;
  /**
   * Optional, for embedders built from word vectors: words related to the query's words (query
   * expansion). The reader looks them up in the full-text index as an extra, lower-weighted list.
   */
  expand?(query: string): Promise<ExpansionTerm[]>;
}

/** Scales `v` to unit length in place (a zero vector stays zero) and returns it. */
export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}
