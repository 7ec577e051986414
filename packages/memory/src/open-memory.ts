import { createDefaultEmbedder } from "./embed/default";
import type { Embedder } from "./embed/embedder";
import { createMemoryIngest, type MemoryIngest } from "./ingest/ingest";
import { createMemoryReader, type MemoryReader, type ReaderOptions } from "./read/reader";
import { openStore } from "./store/database";
import { createItemStore } from "./store/item-store";
import type { VectorBackend } from "./store/vectors";

export interface OpenMemoryOptions extends ReaderOptions {
  /** Path of the memory database, e.g. `<dataDir>/memory.db` (created if missing). */
  file: string;
  /** Defaults to the local word-vector + hashing blend (no network, no model; see README). */
  embedder?: Embedder;
  vectorBackend?: "auto" | VectorBackend;
  log?: (line: string) => void;
}

export interface MemoryService {
  /** Read-only facade: give this (or the tools built from it) to agents. */
  reader: MemoryReader;
  /** Write API for people only. */
  ingest: MemoryIngest;
  vectorBackend: VectorBackend;
  /** Items that still need a vector from this embedder; call `ingest.reembed(onProgress)` to index them. */
  pendingEmbeddings: number;
  close(): void;
}

export function openMemory(options: OpenMemoryOptions): MemoryService {
  const embedder = options.embedder ?? createDefaultEmbedder();
  const log = options.log ?? ((line: string) => console.warn(line));
  const conn = openStore({ file: options.file, embedder, vectorBackend: options.vectorBackend, log });
  const store = createItemStore(conn.writer, conn.backend, embedder, log);
  let closed = false;
  return {
    reader: createMemoryReader(conn.reader, conn.backend, embedder, { ...options, log }),
    ingest: createMemoryIngest(conn.writer, store),
    vectorBackend: conn.backend,
    pendingEmbeddings: conn.pendingEmbeddings,
    close() {
      if (closed) return;
      closed = true;
      conn.reader.close();
      conn.writer.close();
    },
  };
}
