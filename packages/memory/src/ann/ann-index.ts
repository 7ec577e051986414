import type Database from "better-sqlite3";
import { createVectorRows, type VectorRows } from "../store/vector-rows";
import type { VectorBackend } from "../store/vectors";
import { createBitScanIndex, SCAN_BITS } from "./bit-scan";
import type { NeighbourIndex } from "./neighbour-index";
import { createProjection } from "./projection";
import { loadSnapshot, saveSnapshot } from "./snapshot";
import type { HnswFactory } from "./usearch";

// An embedder of 257 dimensions or more gets 512 sign bits per vector (SimHash over the projection), scanned
// exactly (bit-scan.ts): 64 bytes per item. One of fewer dimensions has too few coordinates for good bits; it
// keeps a usearch HNSW graph over int8 coordinates of the (then exact) transform, up to 192 of them (96 found
// only 0.60 of the exact top 5 at 100 000 items). Degree 16; expansion_add 32 (not 64) halves the CPU an insert
// costs, which dominates ingest.
const GRAPH = { connectivity: 16, expansionAdd: 32, expansionSearch: 256 };
const INT8_COORDINATES = 192;
const REPLAY_BATCH = 5000;

export interface AnnIndexOptions {
  /** Snapshot directory; null keeps the index in memory only (rebuilt from SQLite on every start). */
  dir: string | null;
  backend: VectorBackend;
  /** Dimensions of the stored vectors (the embedder's). */
  dimensions: number;
  /** usearch, for embedders of fewer than 257 dimensions; null when it did not load. */
  hnsw: HnswFactory | null;
  log: (line: string) => void;
}

/**
 * Approximate nearest neighbours over the stored vectors: one index per namespace (a scan of sign bits, or a
 * usearch HNSW graph for small embedders), built from a fixed projection of the vectors (see projection.ts).
 * It is derived data: SQLite's vectors are the truth and `vector_changes` says what changed, so `catchUp`
 * brings the indexes in step with any connection — this process's writes, another process's, or a crash that
 * came before a snapshot.
 */
export interface AnnIndex {
  /** Applies every logged change not applied yet (loading the snapshot or rebuilding first if needed). */
  catchUp(db: Database.Database): void;
  /** Up to `k` seqs whose projected vectors are nearest to `query`'s; re-rank them exactly. */
  search(query: Float32Array, namespace: string, k: number): number[];
  /** Writes a snapshot and trims the change log when enough changed since the last (or `force`). */
  persist(writer: Database.Database, force?: boolean): void;
  /** How many vectors the index holds, all namespaces together. */
  size(): number;
}

interface State {
  epoch: string;
  watermark: number;
  indexes: Map<string, NeighbourIndex>;
  /** Changes applied since the last snapshot. */
  unsaved: number;
}

interface Source {
  head: Database.Statement;
  lastAssigned: Database.Statement;
  changes: Database.Statement;
  rows: VectorRows;
}

/** The index for vectors of `dimensions`; null when that needs usearch's graph and `hnsw` is null. */
export function createAnnIndex(options: AnnIndexOptions): AnnIndex | null {
  const wide = createProjection(options.dimensions, SCAN_BITS);
  const hnsw = options.hnsw;
  let signature: string;
  let newIndex: () => NeighbourIndex;
  let projection = wide;
  if (wide.dimensions === SCAN_BITS) {
    signature = `bitscan1|srht${SCAN_BITS}of${options.dimensions}|b1ham`;
    newIndex = createBitScanIndex;
  } else if (hnsw) {
    projection = createProjection(options.dimensions, INT8_COORDINATES);
    signature = `usearch2|srht${projection.dimensions}of${options.dimensions}|i8ip|M${GRAPH.connectivity}`;
    newIndex = () => hnsw({ ...GRAPH, code: "i8", dimensions: projection.dimensions });
  } else {
    return null;
  }
  const sources = new WeakMap<Database.Database, Source>();
  let state: State | null = null;

  const sourceOf = (db: Database.Database): Source => {
    let s = sources.get(db);
    if (!s) {
      s = {
        head: db.prepare(
          `SELECT (SELECT value FROM meta WHERE key = 'vector_epoch') AS epoch,
                  (SELECT value FROM meta WHERE key = 'vector_log_trimmed') AS trimmed,
                  (SELECT max(id) FROM vector_changes) AS last`,
        ),
        lastAssigned: db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'vector_changes'").pluck(),
        changes: db.prepare(
          "SELECT id, seq, old_namespace FROM vector_changes WHERE id > ? ORDER BY id LIMIT ?",
        ),
        rows: createVectorRows(db, options.backend),
      };
      sources.set(db, s);
    }
    return s;
  };

  const indexFor = (indexes: Map<string, NeighbourIndex>, namespace: string) => {
    let index = indexes.get(namespace);
    if (!index) {
      index = newIndex();
      indexes.set(namespace, index);
    }
    return index;
  };

  const rebuild = (src: Source, epoch: string, watermark: number): State => {
    const indexes = new Map<string, NeighbourIndex>();
    const started = performance.now();
    // Batched adds: one native call per 1024 vectors of a namespace.
    const pending = new Map<string, { keys: bigint[]; vectors: Int8Array[] }>();
    const flush = (namespace: string) => {
      const p = pending.get(namespace);
      if (!p || p.keys.length === 0) return;
      const flat = new Int8Array(p.keys.length * projection.dimensions);
      p.vectors.forEach((v, i) => {
        flat.set(v, i * projection.dimensions);
      });
      indexFor(indexes, namespace).add(BigUint64Array.from(p.keys), flat);
      pending.set(namespace, { keys: [], vectors: [] });
    };
    let n = 0;
    for (const row of src.rows.all()) {
      let p = pending.get(row.namespace);
      if (!p) {
        p = { keys: [], vectors: [] };
        pending.set(row.namespace, p);
      }
      p.keys.push(BigInt(row.seq));
      p.vectors.push(projection.project(row.vector));
      if (p.keys.length === 1024) flush(row.namespace);
      n++;
    }
    for (const namespace of pending.keys()) flush(namespace);
    if (n > 0)
      options.log(
        `memory: built the vector index from ${n} stored vectors in ${Math.round(performance.now() - started)} ms`,
      );
    return { epoch, watermark, indexes, unsaved: n };
  };

  const open = (src: Source, epoch: string, trimmed: number): State => {
    const last = Number(src.lastAssigned.get() ?? 0);
    if (options.dir !== null) {
      const snap = loadSnapshot(options.dir, newIndex, { signature, dimensions: projection.dimensions });
      if ("manifest" in snap) {
        const m = snap.manifest;
        // A snapshot ahead of the log belongs to another copy of the database (say, a restored backup).
        if (m.epoch === epoch && m.watermark >= trimmed && m.watermark <= last)
          return { epoch, watermark: m.watermark, indexes: snap.indexes, unsaved: 0 };
        options.log("memory: vector index snapshot is stale; rebuilding it from the database");
      } else if (snap.error !== "no snapshot") {
        options.log(
          `memory: vector index snapshot unusable (${snap.error}); rebuilding it from the database`,
        );
      }
    }
    return rebuild(src, epoch, Math.max(last, trimmed));
  };

  const replay = (src: Source, s: State) => {
    for (;;) {
      const batch = src.changes.all(s.watermark, REPLAY_BATCH) as Array<{
        id: number;
        seq: number;
        old_namespace: string | null;
      }>;
      if (batch.length === 0) return;
      // Only the latest state of each row matters: drop it from every namespace it was in, then add it
      // where its vector is now. Re-applying a change is harmless, so replay never needs to be exact.
      const oldNamespaces = new Map<number, Set<string>>();
      for (const c of batch) {
        const set = oldNamespaces.get(c.seq) ?? new Set<string>();
        if (c.old_namespace !== null) set.add(c.old_namespace);
        oldNamespaces.set(c.seq, set);
      }
      for (const [seq, olds] of oldNamespaces) {
        const key = BigInt(seq);
        for (const ns of olds) {
          const index = s.indexes.get(ns);
          if (index?.contains(key)) index.remove(key);
        }
      }
      // Current vectors read in one statement per batch, then added with one native call per namespace
      // (usearch spreads a batch over the cores; one call per vector would not).
      const adds = new Map<string, { keys: bigint[]; vectors: Int8Array[] }>();
      for (const now of src.rows.many([...oldNamespaces.keys()])) {
        const key = BigInt(now.seq);
        const index = indexFor(s.indexes, now.namespace);
        if (index.contains(key)) index.remove(key);
        let a = adds.get(now.namespace);
        if (!a) {
          a = { keys: [], vectors: [] };
          adds.set(now.namespace, a);
        }
        a.keys.push(key);
        a.vectors.push(projection.project(now.vector));
      }
      for (const [namespace, a] of adds) {
        const flat = new Int8Array(a.keys.length * projection.dimensions);
        a.vectors.forEach((v, i) => {
          flat.set(v, i * projection.dimensions);
        });
        // One thread: replay runs on the write path of a shared machine, and spreading a 1000-vector batch
        // over the cores costs more CPU in all than it saves in wall time.
        indexFor(s.indexes, namespace).add(BigUint64Array.from(a.keys), flat, 1);
      }
      s.watermark = batch[batch.length - 1]!.id;
      s.unsaved += batch.length;
    }
  };

  return {
    catchUp(db) {
      const src = sourceOf(db);
      // One read transaction: the log, the meta rows and the vectors are seen at one point in time.
      db.transaction(() => {
        const head = src.head.get() as { epoch: string | null; trimmed: string | null; last: number | null };
        const epoch = head.epoch ?? "";
        const trimmed = Number(head.trimmed ?? 0);
        if (state === null || state.epoch !== epoch || state.watermark < trimmed)
          state = open(src, epoch, trimmed);
        if ((head.last ?? 0) > state.watermark) replay(src, state);
      })();
    },

    search(query, namespace, k) {
      const index = state?.indexes.get(namespace);
      if (!index || k <= 0) return [];
      const size = index.size();
      if (size === 0) return [];
      const found = index.search(projection.project(query), Math.min(k, size), 1);
      return Array.from(found.keys, Number);
    },

    persist(writer, force = false) {
      const s = state;
      if (options.dir === null || s === null || s.unsaved === 0) return;
      const total = [...s.indexes.values()].reduce((n, i) => n + i.size(), 0);
      // Snapshots grow with the store, so they are taken less often as it grows (amortised O(1) per write).
      if (!force && s.unsaved < Math.max(10_000, total / 4)) return;
      saveSnapshot(options.dir, { signature, epoch: s.epoch, watermark: s.watermark }, s.indexes);
      s.unsaved = 0;
      // The snapshot now covers these changes; a reader behind them reloads it (see catchUp).
      writer.transaction(() => {
        writer.prepare("DELETE FROM vector_changes WHERE id <= ?").run(s.watermark);
        writer
          .prepare(
            "INSERT INTO meta (key, value) VALUES ('vector_log_trimmed', ?) ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))",
          )
          .run(String(s.watermark));
      })();
    },

    size: () => (state ? [...state.indexes.values()].reduce((n, i) => n + i.size(), 0) : 0),
  };
}
