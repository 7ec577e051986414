import type Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { dot } from "../embed/embedder";
import { codeBlob, quantizeInt8 } from "../store/vector-codes";
import { createVectorRows } from "../store/vector-rows";
import type { VectorBackend, VectorMatch, VectorSearch } from "../store/vectors";
import type { AnnIndex } from "./ann-index";

// The index works on projected vectors (sign bits, see ann-index.ts); reading more than asked and re-ranking
// them with the stored vectors puts the true nearest back in order. With the exact scan of the bits (bit-scan.ts),
// 800 candidates found 0.995 of the exact top 10 at 100 000 items (60 queries, bench/memory-ann-recall.ts over the
// speed bench's store; 400 also 0.995, 1 200 and 1 600 1.000) and 0.980 at 1 000 000 (30 queries,
// bench/memory-speed.ts); the HNSW graph over the same bits it replaced found 0.918 and 0.843 there. The scan costs
// the same whatever the count; each candidate re-ranked costs a lookup (≈ 5 µs). The balanced pool of 50 is
// re-ranked word by word anyway.
export const defaultAnnCandidates = (k: number) => Math.min(k * 40 + 400, Math.max(800, k));

/**
 * How many of the index's `candidates` (in its own order, nearest first) the re-rank reads: the better half, at least
 * 8 per result. The half it ranks last rarely holds one of the true nearest: at 100 000 items re-ranking 400 of 800
 * found 0.995 of the exact top 10, all 800 1.000 (with the HNSW graph before the scan: 0.922 either way, and 400
 * instead of 800 took semantic queries from 11.4 to 8.4 ms). An index holding fewer vectors than asked for returns
 * them all, and all are re-ranked.
 */
export const defaultRerankCount = (k: number, candidates: number) =>
  Math.min(candidates, Math.max(8 * k, Math.ceil(candidates / 2)));

/**
 * How many of the candidates scored on their int8 copy get their exact cosine: half again as many as asked for,
 * since rounding reorders near-ties at the edge of the top k. At 100 000 items (60 queries,
 * bench/memory-ann-recall.ts, one run each, HNSW graphs built alike) the exact top 10 was found at 0.930 with 15 kept,
 * 0.930 with every candidate read exactly, 0.913 with 10 kept.
 */
export const exactCount = (k: number) => k + Math.ceil(k / 2);

/**
 * Of those, how many at most are read from the float table: each is a random read of a 1.9 KB row, and at
 * 1 000 000 items that table (1.9 GB) is the part of the file least often in the page cache. A 50-deep search
 * pool read 75 rows a query: with the int8 copy's pages cached and the float table's not, semantic queries took
 * 11–13 ms at p50, with both cached 5.6 (probe over the speed bench's store). Below the head the int8 cosine stands (within ≈ 0.002);
 * `memory_recall`'s 5 results (8 kept) are all exact, and a search pool is re-ranked word by word anyway.
 */
export const EXACT_HEAD = 16;

// Cosine, as sqlite-vec computes it: a custom embedder need not return unit vectors.
const cosine = (q: Float32Array, qNorm: number, v: Float32Array) => {
  const norm = qNorm * Math.sqrt(dot(v, v));
  return norm > 0 ? dot(q, v) / norm : 0;
};

/**
 * Cosine of the candidates `seqs` that are in `namespace` (any order): exact for all of them, or, where a cheaper
 * score can pick the `keep` nearest first, for those `keep`, exact at least for the nearest `EXACT_HEAD`.
 */
export type Rerank = (query: Float32Array, namespace: string, seqs: number[], keep: number) => VectorMatch[];

/**
 * The exact re-rank of the BLOB table's candidates inside SQLite, with sqlite-vec's cosine: only a seq and
 * a number per candidate cross into JavaScript. Handing each 1.9 KB vector over as a Buffer cost ≈ 10 µs a
 * candidate (12 ms of a query with 800), the lookups themselves ≈ 1.5 µs. Two steps: every candidate is scored
 * on its int8 copy (store/vector-codes.ts, a quarter of the pages), and of the best `keep` only the first
 * `EXACT_HEAD` are read again from the float table for their exact cosine. Null when sqlite-vec cannot load.
 */
export function sqlRerank(db: Database.Database, log: (line: string) => void): Rerank | null {
  try {
    sqliteVec.load(db);
  } catch (err) {
    log(`memory: sqlite-vec could not be loaded (${(err as Error).message}); candidates are re-ranked in JS`);
    return null;
  }
  // `+namespace`: checked on the row found by seq. As an index term it made SQLite look each candidate up in
  // the (namespace, seq) index first and then in the table, two searches instead of one (p50 11.8 → 10.0 ms CPU
  // for semantic queries at 100 000 items).
  const exact = db.prepare(
    `SELECT seq, 1 - vec_distance_cosine(embedding, ?) AS similarity FROM items_vec_blob
     WHERE seq IN (SELECT value FROM json_each(?)) AND +namespace = ?`,
  );
  const coarse = db.prepare(
    `SELECT seq, vec_distance_cosine(vec_int8(q), vec_int8(?)) AS distance FROM items_vec_q8
     WHERE seq IN (SELECT value FROM json_each(?)) AND +namespace = ?`,
  );
  return (query, namespace, seqs, keep) => {
    if (keep >= seqs.length) return exact.all(query, JSON.stringify(seqs), namespace) as VectorMatch[];
    const scored = coarse.all(codeBlob(quantizeInt8(query)), JSON.stringify(seqs), namespace) as Array<{
      seq: number;
      distance: number;
    }>;
    const coded = new Set(scored.map((r) => r.seq));
    scored.sort((a, b) => a.distance - b.distance || a.seq - b.seq);
    const head = Math.min(keep, EXACT_HEAD);
    // A candidate without a code (its vector written by a connection that does not keep them) is read exactly.
    const best = [...scored.slice(0, head).map((r) => r.seq), ...seqs.filter((seq) => !coded.has(seq))];
    const tail = scored.slice(head, keep).map((r) => ({ seq: r.seq, similarity: 1 - r.distance }));
    return [...(exact.all(query, JSON.stringify(best), namespace) as VectorMatch[]), ...tail];
  };
}

/** The same in JavaScript over vectors read from either backend (sqlite-vec's vec0 table has no BLOB column). */
export function jsRerank(db: Database.Database, backend: VectorBackend): Rerank {
  const rows = createVectorRows(db, backend);
  return (query, namespace, seqs) => {
    const queryNorm = Math.sqrt(dot(query, query));
    const out: VectorMatch[] = [];
    for (const row of rows.many(seqs)) {
      if (row.namespace === namespace)
        out.push({ seq: row.seq, similarity: cosine(query, queryNorm, row.vector) });
    }
    return out;
  };
}

/** Vector search through the ANN index, re-ranked by exact cosine over the vectors stored in SQLite. */
export function createAnnVectorSearch(
  db: Database.Database,
  backend: VectorBackend,
  ann: AnnIndex,
  candidatesFor: (k: number) => number = defaultAnnCandidates,
  log: (line: string) => void = () => {},
  rerankFor: (k: number, candidates: number) => number = defaultRerankCount,
): VectorSearch {
  const rerank = (backend === "brute-force" ? sqlRerank(db, log) : null) ?? jsRerank(db, backend);
  return (query, namespace, k) => {
    ann.catchUp(db);
    const wanted = candidatesFor(k);
    const found = ann.search(query, namespace, wanted);
    if (found.length === 0) return [];
    // An index holding fewer than asked for is a small namespace: every vector it holds gets its exact cosine
    // (cheap there), so the result is an exact scan's.
    const full = found.length === wanted;
    const seqs = full ? found.slice(0, rerankFor(k, wanted)) : found;
    // Ties by seq, so both re-rank paths give the same order.
    return rerank(query, namespace, seqs, full ? exactCount(k) : seqs.length)
      .sort((a, b) => b.similarity - a.similarity || a.seq - b.seq)
      .slice(0, k);
  };
}
