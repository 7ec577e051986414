import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { afterEach, describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { createHashingEmbedder } from "../embed/hashing";
import { createMemoryTools } from "../tools";

// Every statement the read tools run is recorded (by wrapping better-sqlite3's Statement methods), then its
// plan is asked of SQLite. A plan step "SCAN <table>" over a real table, or over FTS5 without a MATCH, means a
// read proportional to the store.
function recordStatements() {
  const probe = new Database(":memory:");
  const proto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, unknown>;
  probe.close();
  const seen = new Set<string>();
  // Wrapped by hand (not vi.spyOn) so `this`, the statement, reaches the recorder.
  const originals = ["all", "get", "iterate", "run"].map((method) => {
    const original = proto[method] as (...args: unknown[]) => unknown;
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      seen.add(this.source);
      return original.apply(this, args);
    };
    return () => {
      proto[method] = original;
    };
  });
  return {
    seen,
    stop: () => {
      for (const restore of originals) restore();
    },
  };
}

// sqlite_sequence has one row per AUTOINCREMENT table (here one): scanning it is reading one row.
const TINY = new Set(["sqlite_sequence"]);

const fullScans = (db: Database.Database, sql: string): string[] => {
  const params = (sql.match(/\?/g) ?? []).map(() => null);
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
  return (
    plan
      .map((p) => p.detail)
      .filter((d) => /^SCAN /.test(d))
      // FTS5 only when it answers a MATCH (its index string names one: "INDEX 0:M…"); json_each walks the
      // parameter it is given; CONSTANT ROW and a LIMIT-bounded sub-query read no table.
      .filter((d) => !/^SCAN items_fts VIRTUAL TABLE INDEX \d+:.*M/.test(d))
      .filter((d) => !/^SCAN json_each VIRTUAL TABLE|^SCAN CONSTANT ROW|^SCAN \(subquery-\d+\)/.test(d))
      .filter((d) => !TINY.has(d.split(" ")[1]!))
  );
};

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

describe("the read tools are index-driven", () => {
  it("run no statement that scans a table, in every mode and both namespace paths", async () => {
    const m = tempMemory({ embedder: createHashingEmbedder() });
    await m.ingest.addMany(
      Array.from({ length: 400 }, (_, i) => ({
        key: `note ${i}`,
        content: `${i % 2 ? "invoice reminder" : "laminator training"} number ${i} for the shop`,
        namespace: i % 20 === 0 ? "small" : "global",
        tags: i % 3 === 0 ? ["billing"] : [],
      })),
    );
    m.ingest.setFlavour("communication", "# Communication\nShort and warm.");
    const tools = createMemoryTools(m.reader);
    const rec = recordStatements();
    stop = rec.stop;
    for (const namespace of ["global", "small"]) {
      for (const mode of ["lexical", "semantic", "balanced"]) {
        await tools[1]!.execute({ query: "invoice laminat reminders", namespace, mode });
      }
      await tools[0]!.execute({ query: "laminator training", namespace });
    }
    await tools[2]!.execute({ flavour: "communication" });
    rec.stop();
    stop = null;

    const db = new Database(m.file, { readonly: true });
    // The exact re-rank of ANN candidates calls sqlite-vec's cosine.
    sqliteVec.load(db);
    try {
      expect(rec.seen.size).toBeGreaterThan(3);
      const scans = [...rec.seen].flatMap((sql) => fullScans(db, sql).map((d) => `${d}  ←  ${sql}`));
      expect(scans).toEqual([]);
    } finally {
      db.close();
    }
  });

  it("would notice a scan (the check itself can fail)", () => {
    const m = tempMemory({ embedder: createHashingEmbedder() });
    const db = new Database(m.file, { readonly: true });
    try {
      expect(fullScans(db, "SELECT count(*) FROM items WHERE content LIKE ?")).not.toEqual([]);
      expect(fullScans(db, "SELECT rowid FROM items_fts ORDER BY rowid DESC LIMIT 5")).not.toEqual([]);
      expect(fullScans(db, "SELECT rowid FROM items_fts WHERE items_fts MATCH ? LIMIT 5")).toEqual([]);
    } finally {
      db.close();
    }
  });
});
