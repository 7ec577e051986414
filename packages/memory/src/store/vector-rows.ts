import type Database from "better-sqlite3";
import type { VectorBackend } from "./vectors";

export interface StoredVector {
  seq: number;
  namespace: string;
  vector: Float32Array;
}

/** Reads the stored (exact) vectors back: the truth the ANN index is rebuilt from and re-ranks with. */
export interface VectorRows {
  get(seq: number): StoredVector | null;
  /** Several at once (one statement: per-call overhead dominates a point read); missing seqs are left out. */
  many(seqs: number[]): StoredVector[];
  /** Every stored vector, in seq order, streamed so a large store is never held in memory at once. */
  all(): Iterable<StoredVector>;
}

const asFloats = (blob: Buffer) =>
  // Copy: better-sqlite3 may reuse the buffer's memory for the next row.
  new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));

export function createVectorRows(db: Database.Database, backend: VectorBackend): VectorRows {
  const [one, every, some] =
    backend === "sqlite-vec"
      ? [
          db.prepare("SELECT rowid AS seq, namespace, embedding FROM items_vec WHERE rowid = ?"),
          db.prepare("SELECT rowid AS seq, namespace, embedding FROM items_vec"),
          null,
        ]
      : [
          db.prepare("SELECT seq, namespace, embedding FROM items_vec_blob WHERE seq = ?"),
          db.prepare("SELECT seq, namespace, embedding FROM items_vec_blob ORDER BY seq"),
          db.prepare(
            "SELECT seq, namespace, embedding FROM items_vec_blob WHERE seq IN (SELECT value FROM json_each(?))",
          ),
        ];
  type Row = { seq: number | bigint; namespace: string; embedding: Buffer };
  const toStored = (r: Row): StoredVector => ({
    seq: Number(r.seq),
    namespace: r.namespace,
    vector: asFloats(r.embedding),
  });
  return {
    get(seq) {
      const row = one.get(backend === "sqlite-vec" ? BigInt(seq) : seq) as Row | undefined;
      return row ? toStored(row) : null;
    },
    many(seqs) {
      if (some === null) return seqs.flatMap((seq) => this.get(seq) ?? []);
      return (some.all(JSON.stringify(seqs)) as Row[]).map(toStored);
    },
    *all() {
      for (const row of every.iterate() as Iterable<Row>) yield toStored(row);
    },
  };
}
