import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { createMemoryTools } from "./index";

/** Row counts and a checksum over every row of every table, read through a separate connection. */
function fingerprint(file: string): { counts: Record<string, number>; checksum: string; files: string } {
  const db = new Database(file, { readonly: true });
  sqliteVec.load(db);
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table') ORDER BY name").all() as Array<{
      name: string;
    }>
  ).map((t) => t.name);
  const counts: Record<string, number> = {};
  const hash = createHash("sha256");
  for (const t of tables) {
    const rows = db.prepare(`SELECT * FROM "${t}"`).raw().all() as unknown[][];
    counts[t] = rows.length;
    for (const row of rows) {
      for (const v of row) hash.update(Buffer.isBuffer(v) ? v : Buffer.from(String(v)));
    }
  }
  db.close();
  const files = createHash("sha256")
    .update(readFileSync(file))
    .update(readFileSync(`${file}-wal`))
    .digest("hex");
  return { counts, checksum: hash.digest("hex"), files };
}

const ARGS: unknown[] = [
  undefined,
  null,
  {},
  "DROP TABLE items",
  42,
  [],
  { query: "invoice" },
  { query: "invoice", namespace: "global", mode: "lexical", limit: 50 },
  { query: "invoice", namespace: "global", mode: "semantic" },
  { query: "invoice", namespace: "global", mode: "balanced" },
  { query: "x'); DELETE FROM items; --", namespace: "global" },
  { query: '" OR content:*', namespace: "global", mode: "lexical" },
  { query: "invoice", namespace: "other", limit: 1 },
  { query: "invoice", namespace: "global", mode: "nope" },
  { query: "", namespace: "" },
  { flavour: "communication" },
  { flavour: "dislikes" },
  { flavour: "unknown" },
  { content: "write me", key: "k", kind: "memory" },
];

describe("the agent-facing memory surface is read-only", () => {
  it("declares every tool read_only", async () => {
    const m = tempMemory();
    const tools = createMemoryTools(m.reader);
    expect(tools.map((t) => t.name)).toEqual(["memory_recall", "memory_hybrid_search", "memory_flavour"]);
    for (const t of tools) expect(t.permission).toBe("read_only");
  });

  it("leaves the database byte-identical whatever the tools are called with", async () => {
    const m = tempMemory();
    await m.ingest.addMany([
      { key: "Invoice numbering", content: "INV-YYYY-####, never reused." },
      { kind: "person", key: "Ken", content: "Northline Paper rep." },
      { kind: "transcript", key: "Sam", content: "Invoices sent.", thread: "standup" },
    ]);
    m.ingest.setFlavour("communication", "Warm and short.");
    m.ingest.setProfile("Owner of a print shop.");
    const before = fingerprint(m.file);
    expect(before.counts.items).toBe(3);

    for (const tool of createMemoryTools(m.reader)) {
      for (const args of ARGS) await tool.execute(args).catch(() => undefined);
    }
    expect(fingerprint(m.file)).toEqual(before);
  });

  it("gives the reader no way to write: no ingest or mutating methods, frozen, read-only connection", async () => {
    const m = tempMemory();
    const reader = m.reader as unknown as Record<string, unknown>;
    const names = new Set<string>();
    for (let o: object | null = reader; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
      for (const n of Object.getOwnPropertyNames(o)) names.add(n);
    }
    expect([...names].sort()).toEqual(
      ["flavour", "get", "list", "namespaces", "recall", "search", "status", "threads", "userFiles"].sort(),
    );
    for (const n of names)
      expect(n).not.toMatch(/add|edit|delete|remove|import|write|set|put|update|insert|embed|ingest/i);
    expect(Object.isFrozen(reader)).toBe(true);
    expect(() => {
      reader.add = () => undefined;
    }).toThrow(TypeError);
  });
});
