/**
 * What the ANN index (ann-index.ts) needs of the structure behind one namespace: usearch's HNSW graph
 * (usearch.ts) or the flat scan of sign bits (bit-scan.ts). Keys are the items' seqs.
 */
export interface NeighbourIndex {
  /** Adds (or replaces) one vector per key; `vectors` holds the projected int8 coordinates, one after another. */
  add(keys: BigUint64Array, vectors: Int8Array, threads?: number): void;
  /** Up to `k` keys nearest to `vector`, nearest first. */
  search(vector: Int8Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array };
  remove(key: bigint): number;
  contains(key: bigint): boolean;
  size(): number;
  dimensions(): number;
  save(path: string): void;
  load(path: string): void;
}

export interface NeighbourSettings {
  /**
   * How the index stores and compares the projected vectors: `i8`, int8 coordinates by inner product;
   * `b1`, one bit per coordinate (its sign, > 0 → 1) by Hamming distance. Both take the int8 projection as input.
   */
  code: "i8" | "b1";
  /** Coordinates per vector (bits, for `b1`). */
  dimensions: number;
}

export type NeighbourFactory = (settings: NeighbourSettings) => NeighbourIndex;
