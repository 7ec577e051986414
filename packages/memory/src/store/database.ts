import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import type { Embedder } from "../embed/embedder";
import { getMeta, migrate, setMeta } from "./schema";
import { createVectorCodes, writeMissingCodes } from "./vector-codes";
import { moveVectors } from "./vector-move";
import { loadVectorBackend, resetVectorTable, type VectorBackend } from "./vectors";
import { warmReadPages } from "./warm";

export interface OpenStoreOptions {
  file: string;
  embedder: Embedder;
  /** `auto` tries sqlite-vec and falls back to brute-force cosine; tests force either. */
  vectorBackend?: "auto" | VectorBackend;
  log?: (line: string) => void;
}

export interface StoreConnections {
  /** The only connection that writes; used by the ingest API. */
  writer: Database.Database;
  /** A second connection opened read-only: the agent-facing reader physically cannot write. */
  reader: Database.Database;
  backend: VectorBackend;
  /** Rows waiting for a vector from the current embedder (after a change of embedder or a failed embed). */
  pendingEmbeddings: number;
}

/** Opens (creating if needed) the memory database and makes the vector index match `embedder`. */
export function openStore(options: OpenStoreOptions): StoreConnections {
  const log = options.log ?? ((line: string) => console.warn(line));
  const writer = new Database(options.file);
  try {
    // While the store is set up (migrations, a first build of the int8 copy: seconds at 1 000 000 items),
    // another process opening the same file waits for it instead of failing after the usual 5 s.
    writer.pragma("busy_timeout = 300000");
    writer.pragma("journal_mode = WAL");
    writer.pragma("synchronous = NORMAL");
    migrate(writer);
    const backend = loadVectorBackend(writer, options.vectorBackend ?? "auto", log);
    // The signature names the vector space; any change (model, size, backend) invalidates every vector.
    const signature = `${backend}|${options.embedder.id}|${options.embedder.dimensions}`;
    const previous = getMeta(writer, "index_signature");
    if (previous !== signature) {
      const [previousBackend, ...previousSpace] = previous?.split("|") ?? [];
      const sameSpace = previousSpace.join("|") === `${options.embedder.id}|${options.embedder.dimensions}`;
      writer
        .transaction(() => {
          const moved =
            sameSpace && previousBackend !== backend
              ? moveVectors(writer, previousBackend as VectorBackend, backend, options.embedder.dimensions)
              : null;
          if (moved !== null) {
            log(
              `memory: ${moved} vectors moved from ${previousBackend} to ${backend} storage (same embedder)`,
            );
          } else {
            resetVectorTable(writer, backend, options.embedder.dimensions);
            writer.prepare("UPDATE items SET embedder_id = NULL WHERE embedder_id IS NOT NULL").run();
            if (previous !== null)
              log(`memory: vector index changed (${previous} → ${signature}); items need re-embedding`);
          }
          setMeta(writer, "index_signature", signature);
          startVectorEpoch(writer);
        })
        .immediate();
    }
    if (getMeta(writer, "vector_epoch") === null) startVectorEpoch(writer);
    const warmed = performance.now();
    const { bytes, codes } = warmReadPages(writer);
    const warmMs = Math.round(performance.now() - warmed);
    if (warmMs >= 100)
      log(`memory: read the search indexes (${Math.round(bytes / 2 ** 20)} MB) in ${warmMs} ms`);
    if (backend === "brute-force") {
      // Vectors without an int8 code: all of them in a store from before the copy (15–18 s per 1 000 000) or
      // one whose vectors just moved here, a few where a writer that keeps no codes stored them. The warm-up
      // counted the codes; the vectors are counted through their namespace index (13 ms at 1 000 000 items).
      const vectors = writer.prepare("SELECT count(*) FROM items_vec_blob").pluck().get() as number;
      if (codes === null || vectors > codes) {
        const started = performance.now();
        const n = writer
          .transaction(() => {
            createVectorCodes(writer);
            return writeMissingCodes(writer);
          })
          .immediate();
        if (n > 0)
          log(
            `memory: wrote the int8 code of ${n} vector${n === 1 ? "" : "s"} stored without one in ${Math.round(performance.now() - started)} ms`,
          );
      }
    }
    const pending = writer.prepare("SELECT count(*) AS n FROM items WHERE embedder_id IS NULL").get() as {
      n: number;
    };

    writer.pragma("busy_timeout = 5000");
    const reader = new Database(options.file, { readonly: true, fileMustExist: true });
    reader.pragma("busy_timeout = 5000");
    if (backend === "sqlite-vec") loadVectorBackend(reader, "sqlite-vec", log);
    return { writer, reader, backend, pendingEmbeddings: pending.n };
  } catch (err) {
    writer.close();
    throw err;
  }
}

/**
 * A new vector epoch tells every ANN index built from this file to start over (src/ann): the vector
 * table was reset, or the file predates the change log. The log before it is of no use to anyone.
 */
function startVectorEpoch(db: Database.Database): void {
  const last = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'vector_changes'").pluck().get() ?? 0;
  db.prepare("DELETE FROM vector_changes").run();
  setMeta(db, "vector_log_trimmed", String(last));
  setMeta(db, "vector_epoch", randomUUID());
}
