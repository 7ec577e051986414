import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { createHashingEmbedder } from "../embed/hashing";
import { nsToken } from "./schema";

describe("schema upgrades", () => {
  it("re-indexes a version-3 file once: default-namespace rows lose their namespace token, others keep theirs", async () => {
    const embedder = createHashingEmbedder();
    const first = tempMemory({ embedder, vectorIndex: "exact" });
    await first.ingest.addMany([
      { key: "Refund policy", content: "Refunds over 200 need the owner's okay." },
      { key: "Flow refund", content: "This flow refunds small orders.", namespace: "flow_a" },
    ]);
    first.close();
    // Version 3 gave every row a token, the default namespace's too.
    const raw = new Database(first.file);
    raw.exec(`DROP TRIGGER items_fts_insert; DROP TRIGGER items_fts_delete; DROP TRIGGER items_fts_update;
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

    const again = tempMemory({ embedder, vectorIndex: "exact", file: first.file });
    const check = new Database(first.file, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(4);
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
      const db = new Database(first.file, { readonly: true });
      try {
        return db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'items_fts_data'").pluck().get();
      } finally {
        db.close();
      }
    };
    const before = root();
    tempMemory({ embedder, vectorIndex: "exact", file: first.file }).close();
    expect(root()).toBe(before);
  });
});
