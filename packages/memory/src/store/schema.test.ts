import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { createHashingEmbedder } from "../embed/hashing";
import { nsToken, RECENT_ITEMS } from "./schema";

/** A file with one item in the default namespace and one in flow_a, closed again. */
async function twoItemFile(embedder: ReturnType<typeof createHashingEmbedder>) {
  const first = tempMemory({ embedder, vectorIndex: "exact" });
  await first.ingest.addMany([
    { key: "Refund policy", content: "Refunds over 200 need the owner's okay." },
    { key: "Flow refund", content: "This flow refunds small orders.", namespace: "flow_a" },
  ]);
  first.close();
  return first.file;
}

// What schema 5 added, gone again: the file as version 4 left it.
const DROP_RECENT_INDEX = `DROP TRIGGER items_fts_recent_insert; DROP TRIGGER items_fts_recent_trim;
  DROP TRIGGER items_fts_recent_delete; DROP TRIGGER items_fts_recent_update; DROP TABLE items_fts_recent;`;

describe("schema upgrades", () => {
  it("re-indexes a version-3 file once: default-namespace rows lose their namespace token, others keep theirs", async () => {
    const embedder = createHashingEmbedder();
    const file = await twoItemFile(embedder);
    // Version 3 gave every row a token, the default namespace's too.
    const raw = new Database(file);
    raw.exec(`${DROP_RECENT_INDEX}
      DROP TRIGGER items_fts_insert; DROP TRIGGER items_fts_delete; DROP TRIGGER items_fts_update;
      DROP TABLE items_fts; ALTER TABLE items DROP COLUMN ns_token;
      ALTER TABLE items ADD COLUMN ns_token TEXT GENERATED ALWAYS AS ('n' || lower(hex(namespace))) VIRTUAL;
      CREATE VIRTUAL TABLE items_fts USING fts5(key, content, tags, thread, ns_token, content = 'items',
        content_rowid = 'seq', tokenize = 'porter unicode61 remove_diacritics 2');
      INSERT INTO items_fts (items_fts) VALUES ('rebuild'); PRAGMA user_version = 3;`);
    const tokens = (db: Database.Database, namespace: string) =>
      db
        .prepare("SELECT count(*) FROM items_fts WHERE items_fts MATCH ?")
        .pluck()
        .get(`{ns_token}: ${nsToken(namespace)}`);
    expect(tokens(raw, "global")).toBe(1);
    raw.close();

    const again = tempMemory({ embedder, vectorIndex: "exact", file: file });
    const check = new Database(file, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(5);
    expect(tokens(check, "global")).toBe(0);
    expect(tokens(check, "flow_a")).toBe(1);
    check.close();
    const global = await again.reader.search("refund", { namespace: "global", mode: "lexical" });
    const flow = await again.reader.search("refund", { namespace: "flow_a", mode: "lexical" });
    expect(global.map((h) => h.item.key)).toEqual(["Refund policy"]);
    expect(flow.map((h) => h.item.key)).toEqual(["Flow refund"]);
    again.close();

    // Once: opening the upgraded file again leaves its full-text tables as they are.
    const root = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'items_fts_data'").pluck().get();
      } finally {
        db.close();
      }
    };
    const before = root();
    tempMemory({ embedder, vectorIndex: "exact", file: file }).close();
    expect(root()).toBe(before);
  });

  it("fills the index of the newest items once when a version-4 file is opened", async () => {
    const embedder = createHashingEmbedder();
    const file = await twoItemFile(embedder);
    const raw = new Database(file);
    raw.exec(`${DROP_RECENT_INDEX} PRAGMA user_version = 4;`);
    raw.close();
    tempMemory({ embedder, vectorIndex: "exact", file: file }).close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(5);
    expect(
      check
        .prepare("SELECT rowid FROM items_fts_recent WHERE items_fts_recent MATCH 'refund' ORDER BY rowid")
        .pluck()
        .all(),
    ).toEqual(check.prepare("SELECT seq FROM items ORDER BY seq").pluck().all());
    check.close();
  });
});

describe("the index of the newest items", () => {
  it("holds the newest RECENT_ITEMS items through inserts, updates and deletes", async () => {
    const m = tempMemory({ embedder: createHashingEmbedder(), vectorIndex: "exact" });
    m.close();
    const db = new Database(m.file);
    try {
      const insert = db.prepare(
        `INSERT INTO items (id, namespace, kind, key, content, content_hash, created_at, updated_at)
         VALUES (?, 'global', 'memory', ?, ?, '', '', '')`,
      );
      const last = RECENT_ITEMS + 1005;
      db.transaction(() => {
        for (let i = 1; i <= last; i++) insert.run(`i${i}`, `Order ${i}`, i === 3 ? "gone" : "kept");
      })();
      const seqs = (word: string) =>
        db
          .prepare("SELECT rowid FROM items_fts_recent WHERE items_fts_recent MATCH ? ORDER BY rowid")
          .pluck()
          .all(word) as number[];
      // Seq 21 000 dropped seqs 1 to 1 000; the 1 005 after them wait for seq 22 000.
      const kept = seqs("kept");
      expect(kept).toHaveLength(RECENT_ITEMS + 5);
      expect(kept[0]).toBe(1001);
      expect(seqs("gone")).toEqual([]);
      db.prepare("UPDATE items SET content = 'changed' WHERE seq = ?").run(1001);
      db.prepare("UPDATE items SET content = 'changed' WHERE seq = 2").run();
      db.prepare("DELETE FROM items WHERE seq = ?").run(last);
      // Seq 2 was already below the floor: updating it does not bring it back.
      expect(seqs("changed")).toEqual([1001]);
      expect(seqs("kept")).toHaveLength(RECENT_ITEMS + 3);
      // The main index agrees about every item the recent one holds.
      expect(
        db
          .prepare("SELECT rowid FROM items_fts WHERE items_fts MATCH 'kept' AND rowid > 1000 ORDER BY rowid")
          .pluck()
          .all(),
      ).toEqual(seqs("kept"));
    } finally {
      db.close();
    }
  });
});
