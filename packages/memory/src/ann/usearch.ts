import { createRequire } from "node:module";
import type { NeighbourIndex, NeighbourSettings } from "./neighbour-index";

/** An HNSW graph's settings: the code as any index's, then the graph's own. */
export interface HnswSettings extends NeighbourSettings {
  /** Graph degree (usearch "connectivity", HNSW's M). */
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
}

export type HnswFactory = (settings: HnswSettings) => NeighbourIndex;

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
  let Index: (new (config: Record<string, unknown>) => NeighbourIndex) | undefined;
  return {
    factory: (s) => {
      Index ??= (require(name) as { Index: new (config: Record<string, unknown>) => NeighbourIndex }).Index;
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
