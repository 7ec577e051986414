import type Database from "better-sqlite3";

// A one-byte-per-coordinate copy of every stored vector, in a table of its own, for the exact re-rank of the
// ANN index's candidates (src/ann/ann-search.ts). The float table's rows are ≈ 2 KB, two to a page: at
// 1 000 000 items it is 1.9 GB, and reading 400 candidates from it is 400 random page reads that a cold or
// crowded page cache answers from disk. Here a row is ≈ 490 bytes, eight to a page, and the table a quarter
// the size: the pages a query needs are far more often already in memory. The float table stays the truth
// (rebuilds, moves, the final scores).

/** Creates the copy's table, empty (dropping an old one). */
export function resetVectorCodes(db: Database.Database): void {
  db.exec("DROP TABLE IF EXISTS items_vec_q8");
  db.exec("CREATE TABLE items_vec_q8 (seq INTEGER PRIMARY KEY, namespace TEXT NOT NULL, q BLOB NOT NULL)");
}

/**
 * `v` scaled so its largest coordinate is ±127 and rounded. Cosine ignores the scale, so none is stored:
 * sqlite-vec's int8 cosine of two codes is the cosine of the vectors but for rounding (≈ 0.001 at 484 dims).
 */
export function quantizeInt8(v: Float32Array): Int8Array {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const scale = max > 0 ? 127 / max : 0;
  const q = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) q[i] = Math.round(v[i]! * scale);
  return q;
}

export const codeBlob = (q: Int8Array) => Buffer.from(q.buffer, q.byteOffset, q.byteLength);

/** Upsert and delete of one row of the copy; the caller writes the float table in the same transaction. */
export function createCodeWriter(db: Database.Database) {
  const put = db.prepare(
    "INSERT INTO items_vec_q8 (seq, namespace, q) VALUES (?, ?, ?) ON CONFLICT (seq) DO UPDATE SET namespace = excluded.namespace, q = excluded.q",
  );
  const del = db.prepare("DELETE FROM items_vec_q8 WHERE seq = ?");
  return {
    put: (seq: number, namespace: string, vector: Float32Array) =>
      void put.run(seq, namespace, codeBlob(quantizeInt8(vector))),
    remove: (seq: number) => void del.run(seq),
  };
}

/** Builds the copy from the float table (a store from before it, or vectors just moved there), in the caller's transaction. */
export function fillVectorCodes(db: Database.Database): number {
  resetVectorCodes(db);
  // A function of this connection only, used by this one statement (no trigger names it, so another
  // connection never needs it).
  db.function("switchyard_quantize_int8", (blob: unknown) => {
    const b = blob as Buffer;
    return codeBlob(
      quantizeInt8(new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))),
    );
  });
  return db
    .prepare(
      "INSERT INTO items_vec_q8 (seq, namespace, q) SELECT seq, namespace, switchyard_quantize_int8(embedding) FROM items_vec_blob",
    )
    .run().changes;
}

export const hasVectorCodes = (db: Database.Database) =>
  db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'items_vec_q8'").pluck().get() === 1;
