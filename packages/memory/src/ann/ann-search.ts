import type Database from "better-sqlite3";
import { dot } from "../embed/embedder";
import { createVectorRows } from "../store/vector-rows";
import type { VectorBackend, VectorMatch, VectorSearch } from "../store/vectors";
import type { AnnIndex } from "./ann-index";

// The graph works on projected, int8 vectors; reading a few more than asked and re-ranking them with
// the exact stored vectors puts the true nearest back in order.
// With expansion_add 32, 800 candidates for k = 10 found 0.965 of the exact top 10 at 100 000 items, 400 only
// 0.917 (bench/memory-ann-recall.ts, 60 queries); more candidates cost vector reads (≈ 2 µs each), and the
// balanced pool of 50 is re-ranked word by word anyway.
export const defaultAnnCandidates = (k: number) => Math.min(k * 40 + 400, Math.max(800, k));

// Cosine, as sqlite-vec computes it: a custom embedder need not return unit vectors.
const cosine = (q: Float32Array, qNorm: number, v: Float32Array) => {
  const norm = qNorm * Math.sqrt(dot(v, v));
  return norm > 0 ? dot(q, v) / norm : 0;
};

/** Vector search through the ANN index, re-ranked by exact cosine over the vectors stored in SQLite. */
export function createAnnVectorSearch(
  db: Database.Database,
  backend: VectorBackend,
  ann: AnnIndex,
  candidatesFor: (k: number) => number = defaultAnnCandidates,
): VectorSearch {
  const rows = createVectorRows(db, backend);
  return (query, namespace, k) => {
    ann.catchUp(db);
    const queryNorm = Math.sqrt(dot(query, query));
    const out: VectorMatch[] = [];
    for (const row of rows.many(ann.search(query, namespace, candidatesFor(k)))) {
      if (row.namespace === namespace)
        out.push({ seq: row.seq, similarity: cosine(query, queryNorm, row.vector) });
    }
    return out.sort((a, b) => b.similarity - a.similarity).slice(0, k);
  };
}
