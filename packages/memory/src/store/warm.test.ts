import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { warmReadPages } from "./warm";

const notes = Array.from({ length: 12 }, (_, i) => ({ key: `note ${i}`, content: `invoice reminder ${i}` }));

describe("warming a store's read pages", () => {
  it("reads every byte of the vector codes and both full-text indexes", async () => {
    const m = tempMemory({ vectorBackend: "brute-force" });
    await m.ingest.addMany(notes);
    const db = new Database(m.file, { readonly: true });
    try {
      const sum = (sql: string) => db.prepare(sql).pluck().get() as number;
      const expected =
        sum("SELECT sum(length(q)) FROM items_vec_q8") +
        sum("SELECT sum(length(block)) FROM items_fts_data") +
        sum("SELECT sum(length(sz)) FROM items_fts_docsize") +
        sum("SELECT sum(length(block)) FROM items_fts_recent_data") +
        sum("SELECT sum(length(sz)) FROM items_fts_recent_docsize");
      // One byte per coordinate of the float vectors.
      expect(sum("SELECT sum(length(q)) FROM items_vec_q8")).toBe(
        sum("SELECT sum(length(embedding)) / 4 FROM items_vec_blob"),
      );
      expect(warmReadPages(db)).toEqual({ bytes: expected, codes: 12 });
    } finally {
      db.close();
    }
  });

  it("skips the int8 codes a sqlite-vec store does not have", async () => {
    const m = tempMemory({ vectorIndex: "exact" });
    expect(m.vectorBackend).toBe("sqlite-vec");
    await m.ingest.addMany(notes);
    const db = new Database(m.file, { readonly: true });
    try {
      expect(warmReadPages(db).bytes).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});
