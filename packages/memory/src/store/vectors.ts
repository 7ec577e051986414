import type Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { dot } from "../embed/embedder";
import { createCodeWriter } from "./vector-codes";

export type VectorBackend = "sqlite-vec" | "brute-force";

/** Loads sqlite-vec into `db`; on failure says why through `log` and returns the fallback backend. */
export function loadVectorBackend(
  db: Database.Database,
  wanted: "auto" | VectorBackend,
  log: (line: string) => void,
): VectorBackend {
  if (wanted === "brute-force") return "brute-force";
  try {
    sqliteVec.load(db);
    return "sqlite-vec";
  } catch (err) {
    if (wanted === "sqlite-vec") throw err;
    log(
      `memory: sqlite-vec could not be loaded (${(err as Error).message}); semantic search falls back to brute-force cosine over stored vectors`,
    );
    return "brute-force";
  }
}

/** (Re)creates the vector table for `dimensions`, dropping every stored vector. */
export function resetVectorTable(db: Database.Database, backend: VectorBackend, dimensions: number): void {
  // A vec0 table can only be dropped with the extension loaded; a stale one is left for a later sqlite-vec run.
  if (backend === "sqlite-vec") db.exec("DROP TABLE IF EXISTS items_vec");
  db.exec("DROP TABLE IF EXISTS items_vec_blob");
  // The int8 copy (store/vector-codes.ts) is made again by openStore for the new table's vectors.
  db.exec("DROP TABLE IF EXISTS items_vec_q8");
  if (backend === "sqlite-vec") {
    db.exec(
      `CREATE VIRTUAL TABLE items_vec USING vec0(namespace text partition key, embedding float[${dimensions}] distance_metric=cosine)`,
    );
  } else {
    db.exec(
      "CREATE TABLE items_vec_blob (seq INTEGER PRIMARY KEY, namespace TEXT NOT NULL, embedding BLOB NOT NULL)",
    );
    db.exec("CREATE INDEX items_vec_blob_ns ON items_vec_blob (namespace)");
  }
}

export interface VectorWriter {
  put(seq: number, namespace: string, vector: Float32Array): void;
  remove(seq: number): void;
}

export function createVectorWriter(db: Database.Database, backend: VectorBackend): VectorWriter {
  if (backend === "sqlite-vec") {
    // vec0 wants an integer-typed rowid, hence BigInt; it has no upsert, so delete first.
    const del = db.prepare("DELETE FROM items_vec WHERE rowid = ?");
    const ins = db.prepare("INSERT INTO items_vec (rowid, namespace, embedding) VALUES (?, ?, ?)");
    return {
      put: (seq, namespace, vector) => {
        del.run(BigInt(seq));
        ins.run(BigInt(seq), namespace, vector);
      },
      remove: (seq) => void del.run(BigInt(seq)),
    };
  }
  const put = db.prepare(
    "INSERT INTO items_vec_blob (seq, namespace, embedding) VALUES (?, ?, ?) ON CONFLICT (seq) DO UPDATE SET namespace = excluded.namespace, embedding = excluded.embedding",
  );
  const del = db.prepare("DELETE FROM items_vec_blob WHERE seq = ?");
  const putCode = createCodeWriter(db);
  return {
    put: (seq, namespace, vector) => {
      put.run(seq, namespace, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
      putCode(seq, namespace, vector);
    },
    remove: (seq) => void del.run(seq),
  };
}

export interface VectorMatch {
  seq: number;
  /** Cosine similarity, -1..1. */
  similarity: number;
}

export type VectorSearch = (query: Float32Array, namespace: string, k: number) => VectorMatch[];

export function createVectorSearch(db: Database.Database, backend: VectorBackend): VectorSearch {
  if (backend === "sqlite-vec") {
    const knn = db.prepare(
      "SELECT rowid AS seq, distance FROM items_vec WHERE embedding MATCH ? AND k = ? AND namespace = ? ORDER BY distance",
    );
    return (query, namespace, k) =>
      (knn.all(query, k, namespace) as Array<{ seq: number; distance: number }>).map((r) => ({
        seq: Number(r.seq),
        similarity: 1 - r.distance,
      }));
  }
  const scan = db.prepare("SELECT seq, embedding FROM items_vec_blob WHERE namespace = ?");
  return (query, namespace, k) => {
    // Keep only the best k while scanning so memory stays flat on large namespaces.
    const best: VectorMatch[] = [];
    for (const row of scan.iterate(namespace) as Iterable<{ seq: number; embedding: Buffer }>) {
      const v = new Float32Array(
        row.embedding.buffer,
        row.embedding.byteOffset,
        row.embedding.byteLength / 4,
      );
      const similarity = dot(query, v);
      if (best.length < k) best.push({ seq: row.seq, similarity });
      else if (similarity > best[best.length - 1]!.similarity)
        best[best.length - 1] = { seq: row.seq, similarity };
      else continue;
      best.sort((a, b) => b.similarity - a.similarity);
    }
    return best;
  };
}
