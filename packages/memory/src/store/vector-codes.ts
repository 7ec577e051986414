import type Database from "better-sqlite3";

// A one-byte-per-coordinate copy of every stored vector, in a table of its own, for the exact re-rank of the
// ANN index's candidates (src/ann/ann-search.ts). The float table's rows are ≈ 2 KB, two to a page: at
// 1 000 000 items it is 1.9 GB, and reading 400 candidates from it is 400 random page reads that a cold or
// crowded page cache answers from disk. Here a row is ≈ 490 bytes, eight to a page, and the table a quarter
// the size: the pages a query needs are far more often already in memory. The float table stays the truth
// (rebuilds, moves, the exact scores of the nearest candidates).

/**
 * Creates the copy's table if it is missing. Triggers on the float table drop a row's code whenever its vector
 * changes or goes, whoever writes it: a connection that does not keep the copy (an older version of this package,
 * the sqlite3 shell) leaves the row without a code, never with a stale one; the re-rank reads rows without a code
 * exactly, and the next open writes their codes (store/database.ts). This package's writer writes the code after
 * the vector, in the same transaction.
 */
export function createVectorCodes(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS items_vec_q8 (seq INTEGER PRIMARY KEY, namespace TEXT NOT NULL, q BLOB NOT NULL);
    CREATE TRIGGER IF NOT EXISTS items_vec_q8_stale AFTER UPDATE ON items_vec_blob BEGIN
      DELETE FROM items_vec_q8 WHERE seq = old.seq;
    END;
    CREATE TRIGGER IF NOT EXISTS items_vec_q8_gone AFTER DELETE ON items_vec_blob BEGIN
      DELETE FROM items_vec_q8 WHERE seq = old.seq;
    END;`);
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

/** Writes one row's code, after its float vector was written (deletes follow by trigger). */
export function createCodeWriter(db: Database.Database) {
  const put = db.prepare(
    "INSERT INTO items_vec_q8 (seq, namespace, q) VALUES (?, ?, ?) ON CONFLICT (seq) DO UPDATE SET namespace = excluded.namespace, q = excluded.q",
  );
  return (seq: number, namespace: string, vector: Float32Array) =>
    void put.run(seq, namespace, codeBlob(quantizeInt8(vector)));
}

/**
 * Writes the codes of vectors that have none: all of them in a store from before the copy, or those another writer
 * stored without one (see the triggers). In the caller's transaction; returns how many.
 */
export function writeMissingCodes(db: Database.Database): number {
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
      `INSERT INTO items_vec_q8 (seq, namespace, q) SELECT seq, namespace, switchyard_quantize_int8(embedding)
       FROM items_vec_blob v WHERE NOT EXISTS (SELECT 1 FROM items_vec_q8 c WHERE c.seq = v.seq)`,
    )
    .run().changes;
}
