import type Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { resetVectorTable, type VectorBackend } from "./vectors";

/**
 * Moves stored vectors between the two tables when only the backend changed (same embedder, same
 * size): the vectors are still right, so nothing needs re-embedding. Returns how many moved, or null
 * when they cannot be moved (sqlite-vec not loadable, or no old table), and then the caller resets.
 * Runs inside the caller's transaction.
 */
export function moveVectors(
  db: Database.Database,
  from: VectorBackend,
  to: VectorBackend,
  dimensions: number,
): number | null {
  try {
    // vec0 tables can be neither read nor dropped without the extension.
    sqliteVec.load(db);
  } catch {
    return null;
  }
  const exists = (name: string) =>
    db.prepare("SELECT count(*) FROM sqlite_master WHERE name = ?").pluck().get(name) === 1;
  const source = from === "sqlite-vec" ? "items_vec" : "items_vec_blob";
  if (!exists(source)) return null;
  // The target table is created fresh; the source is kept until the copy is done, then dropped.
  if (to === "sqlite-vec") {
    db.exec("DROP TABLE IF EXISTS items_vec");
    resetVectorTable(db, "sqlite-vec", dimensions);
    db.exec(
      "INSERT INTO items_vec (rowid, namespace, embedding) SELECT seq, namespace, embedding FROM items_vec_blob",
    );
    db.exec("DROP TABLE items_vec_blob");
    db.exec("DROP TABLE IF EXISTS items_vec_q8");
    return db.prepare("SELECT count(*) FROM items_vec").pluck().get() as number;
  }
  db.exec("DROP TABLE IF EXISTS items_vec_blob");
  db.exec(
    "CREATE TABLE items_vec_blob (seq INTEGER PRIMARY KEY, namespace TEXT NOT NULL, embedding BLOB NOT NULL)",
  );
  db.exec("CREATE INDEX items_vec_blob_ns ON items_vec_blob (namespace)");
  db.exec(
    "INSERT INTO items_vec_blob (seq, namespace, embedding) SELECT rowid, namespace, embedding FROM items_vec",
  );
  db.exec("DROP TABLE items_vec");
  // Their int8 codes are written by openStore, which finds fewer codes than vectors.
  return db.prepare("SELECT count(*) FROM items_vec_blob").pluck().get() as number;
}
