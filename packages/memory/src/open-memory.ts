import { type AnnIndex, createAnnIndex } from "./ann/ann-index";
import { loadUsearch } from "./ann/usearch";
import { createDefaultEmbedder } from "./embed/default";
import type { Embedder } from "./embed/embedder";
import { createMemoryIngest, type MemoryIngest } from "./ingest/ingest";
import { createMemoryReader, type MemoryReader, type ReaderOptions } from "./read/reader";
import { openStore } from "./store/database";
import { createItemStore } from "./store/item-store";
import type { VectorBackend } from "./store/vectors";

export type VectorIndexKind = "ann" | "exact";

export interface OpenMemoryOptions extends ReaderOptions {
  /** Path of the memory database, e.g. `<dataDir>/memory.db` (created if missing). */
  file: string;
  /** Defaults to the local word-vector + hashing blend (no network, no model; see README). */
  embedder?: Embedder;
  /**
   * Where vectors are stored: `brute-force` is a plain BLOB table (the default with the ANN index),
   * `sqlite-vec` a vec0 table (the default for `vectorIndex: "exact"`: its scan is native).
   */
  vectorBackend?: "auto" | VectorBackend;
  /**
   * `ann` (default): approximate nearest neighbours (src/ann: a scan of sign bits, or usearch's HNSW graph for
   * an embedder of fewer than 257 dimensions), snapshot in `<file>.ann/`, falling back to `exact` with a log
   * line when that graph is needed and usearch's native module cannot load. `exact` scans every vector.
   */
  vectorIndex?: VectorIndexKind;
  log?: (line: string) => void;
}

export interface MemoryService {
  /** Read-only facade: give this (or the tools built from it) to agents. */
  reader: MemoryReader;
  /** Write API for people only. */
  ingest: MemoryIngest;
  vectorBackend: VectorBackend;
  vectorIndex: VectorIndexKind;
  /** Items that still need a vector from this embedder; call `ingest.reembed(onProgress)` to index them. */
  pendingEmbeddings: number;
  close(): void;
}

export function openMemory(options: OpenMemoryOptions): MemoryService {
  const embedder = options.embedder ?? createDefaultEmbedder();
  const log = options.log ?? ((line: string) => console.warn(line));
  // The ANN index re-ranks its candidates with exact vectors read by seq: a plain BLOB table answers
  // those reads in microseconds, sqlite-vec's chunked table in about a millisecond. The default does not
  // depend on whether usearch loads, so two processes on one file (one of them bundled, say) never
  // move the vectors back and forth between tables.
  const vectorBackend = options.vectorBackend ?? (options.vectorIndex === "exact" ? "auto" : "brute-force");
  const conn = openStore({ file: options.file, embedder, vectorBackend, log });
  let ann: AnnIndex | null = null;
  try {
    if (options.vectorIndex !== "exact") {
      // Found now, loaded only when a graph is made (an embedder of fewer than 257 dimensions).
      const usearch = loadUsearch();
      ann = createAnnIndex({
        dir: `${options.file}.ann`,
        backend: conn.backend,
        dimensions: embedder.dimensions,
        hnsw: "error" in usearch ? null : usearch.factory,
        log,
      });
      if (!ann && "error" in usearch)
        log(`memory: usearch could not be loaded (${usearch.error}); semantic search scans every vector`);
    }
    // Load the snapshot, or rebuild from the stored vectors, now rather than on the first query.
    ann?.catchUp(conn.writer);
    ann?.persist(conn.writer);
  } catch (err) {
    conn.reader.close();
    conn.writer.close();
    throw err;
  }
  const afterWrite = () => {
    if (!ann || conn.writer.inTransaction) return;
    // The write is committed whatever happens here: the index catches up on the next query or start.
    try {
      ann.catchUp(conn.writer);
      ann.persist(conn.writer);
    } catch (err) {
      log(`memory: vector index not updated after a write (${(err as Error).message}); it catches up later`);
    }
  };
  const store = createItemStore(conn.writer, conn.backend, embedder, log, afterWrite);
  let closed = false;
  return {
    reader: createMemoryReader(conn.reader, conn.backend, embedder, { ...options, log }, ann),
    ingest: createMemoryIngest(conn.writer, store),
    vectorBackend: conn.backend,
    vectorIndex: ann ? "ann" : "exact",
    pendingEmbeddings: conn.pendingEmbeddings,
    close() {
      if (closed) return;
      closed = true;
      try {
        // The next start then loads this snapshot instead of replaying (or rebuilding) at length.
        ann?.catchUp(conn.writer);
        ann?.persist(conn.writer, true);
      } catch (err) {
        log(
          `memory: vector index snapshot not saved (${(err as Error).message}); the next start rebuilds it`,
        );
      } finally {
        conn.reader.close();
        conn.writer.close();
      }
    },
  };
}
