import { createBlendedEmbedder } from "./blend";
import type { Embedder } from "./embedder";
import { createHashingEmbedder } from "./hashing";
import { createWordVectorEmbedder, type WordVectorEmbedderOptions } from "./word-vectors";

/**
 * The default local embedder: half GloVe word vectors (meaning: "refund" ≈ "money back"), half hashed
 * word and character features (exact terms, word forms, fragments such as "laminat"). Settings were
 * chosen on half of the quality set's queries (scripts/tune-embedder.ts); see README for the figures.
 */
export function createDefaultEmbedder(
  options: Pick<WordVectorEmbedderOptions, "path" | "expansion" | "match"> = {},
): Embedder {
  return createBlendedEmbedder([
    {
      embedder: createWordVectorEmbedder({
        path: options.path,
        sifA: 1e-3,
        unitWords: true,
        expansion: options.expansion,
        match: options.match,
      }),
      weight: 0.5,
    },
    { embedder: createHashingEmbedder(), weight: 0.5 },
  ]);
}
