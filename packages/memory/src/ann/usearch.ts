import { createRequire } from "node:module";

/** The part of usearch's `Index` this package uses. */
export interface HnswIndex {
  add(keys: BigUint64Array, vectors: Int8Array, threads?: number): void;
  search(vector: Int8Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array };
  remove(key: bigint): number;
  contains(key: bigint): boolean;
  size(): number;
  dimensions(): number;
  save(path: string): void;
  load(path: string): void;
}

export interface HnswSettings {
  /**
   * How the graph stores and compares the projected vectors: `i8`, int8 coordinates by inner product;
   * `b1`, one bit per coordinate (its sign) by Hamming distance. Both take the int8 projection as input.
   */
  code: "i8" | "b1";
  /** Coordinates per vector (bits, for `b1`). */
  dimensions: number;
  /** Graph degree (usearch "connectivity", HNSW's M). */
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
}

export type HnswFactory = (settings: HnswSettings) => HnswIndex;

/**
 * Finds usearch (a native addon) now and loads it at the first index the store needs: a host whose memory
 * holds no vectors never maps the library (≈ 4.5 MB of RSS, counted against the webhook hot path's memory
 * budget). Resolved by name through createRequire so a bundler leaves it alone; `error` (with the reason)
 * when it is not installed, and search then stays exact. Its prebuilt binaries ship in the npm package.
 */
export function loadUsearch(): { factory: HnswFactory } | { error: string } {
  const name = "usearch";
  const require = createRequire(import.meta.url);
  try {
    require.resolve(name);
  } catch (err) {
    return { error: (err as Error).message };
  }
  let Index: (new (config: Record<string, unknown>) => HnswIndex) | undefined;
  return {
    factory: (s) => {
      Index ??= (require(name) as { Index: new (config: Record<string, unknown>) => HnswIndex }).Index;
      return new Index({
        dimensions: s.dimensions,
        // Inner product for int8: the projection hands over unit vectors scaled to the int8 range, so their
        // norms are equal but for rounding and ip orders like cosine; usearch's int8 cosine works the norms
        // out on every comparison, which cost ≈ 40 % more insert CPU. For b1, usearch keeps the sign of each
        // int8 coordinate it is given (> 0 → 1) and compares bit strings by Hamming distance.
        metric: s.code === "b1" ? "hamming" : "ip",
        quantization: s.code,
        connectivity: s.connectivity,
        expansion_add: s.expansionAdd,
        expansion_search: s.expansionSearch,
        multi: false,
      });
    },
  };
}
