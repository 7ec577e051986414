import { randomUUID } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../__tests__/temp-memory";
import { createHashingEmbedder } from "../embed/hashing";
import { openStore } from "../store/database";
import { createWordStats } from "./idf";
import { RECENT_ITEMS } from "../store/schema";
import { createLexicalSearch, DEFAULT_FIELD_WEIGHTS, RANK_WINDOW } from "./lexical";

const open: Array<() => void> = [];
afterEach(() => {
  while (open.length > 0) open.pop()!();
});

/** A store filled straight through SQL (the FTS triggers index it), big enough for the rank window. */
function store(rows: Array<{ key: string; content: string; namespace?: string }>) {
  const conn = openStore({
    file: join(tempDir(), "memory.db"),
    embedder: createHashingEmbedder(),
    vectorBackend: "brute-force",
    log: () => {},
  });
  open.push(() => {
    conn.reader.close();
    conn.writer.close();
  });
  const insert = conn.writer.prepare(
    `INSERT INTO items (id, namespace, kind, key, content, content_hash, created_at, updated_at)
     VALUES (?, ?, 'memory', ?, ?, '', '', '')`,
  );
  conn.writer.transaction(() => {
    for (const r of rows) insert.run(randomUUID(), r.namespace ?? "global", r.key, r.content);
  })();
  const keyOf = conn.reader.prepare("SELECT key FROM items WHERE seq = ?").pluck();
  return { db: conn.reader, keys: (seqs: Array<{ seq: number }>) => seqs.map((s) => keyOf.get(s.seq)) };
}

interface Ran {
  match: string;
  /** Ranked only the newest matches. */
  windowed: boolean;
  /** Over the index of the newest items. */
  recent: boolean;
  /** Rows handed back to JavaScript. */
  rows: number;
}

/** Each ranking statement run: its MATCH expression, how it ranked and how many rows it returned. */
function rankingRuns(db: Database.Database): Ran[] {
  const runs: Ran[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    const all = stmt.all.bind(stmt);
    stmt.all = ((...args: unknown[]) => {
      const rows = all(...args) as unknown[];
      if (sql.includes("bm25("))
        runs.push({
          match: String(args[0]),
          windowed: sql.includes("rowid DESC"),
          recent: sql.includes("items_fts_recent"),
          rows: rows.length,
        });
      return rows;
    }) as typeof stmt.all;
    return stmt;
  }) as typeof db.prepare;
  return runs;
}

const common = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ key: `Order ${i}`, content: `Customer order number ${i}.` }));

describe("lexical search", () => {
  it("lets SQLite rank and limit: only the k rows asked for come back", () => {
    const { db } = store(common(300));
    const ran = rankingRuns(db);
    const search = createLexicalSearch(db, createWordStats(db));
    expect(search("customer order", "global", 5)).toHaveLength(5);
    // One statement, whole words only: the prefix fallback did not run, and 5 of 300 matches were read.
    expect(ran.map((r) => r.rows)).toEqual([5]);
  });

  it("falls back to prefixes only when whole words find too little", () => {
    const { db, keys } = store([
      { key: "Laminator", content: "The laminator pouches are in the cupboard." },
      { key: "Stationery", content: "Pens and tape: second cupboard on the left." },
    ]);
    const ran = rankingRuns(db);
    const search = createLexicalSearch(db, createWordStats(db));
    expect(keys(search("cupb", "global", 5)).sort()).toEqual(["Laminator", "Stationery"]);
    expect(ran.map((r) => r.rows)).toEqual([0, 2]);
  });

  it("does not let common words crowd a rare one out of a large store", () => {
    const rows = [
      { key: "Order 4242 refund", content: "Customer order refunded in full." },
      ...common(RANK_WINDOW + 200),
    ];
    const { db, keys } = store(rows);
    const search = createLexicalSearch(db, createWordStats(db));
    // The rare item is the oldest: a window of the newest matches alone would never see it.
    expect(keys(search("customer order refund", "global", 1))).toEqual(["Order 4242 refund"]);
  });

  it("ranks a rare word's matches by that word alone, then the common words' newest matches after them", () => {
    const rows = [
      { key: "Order 4242 refund", content: "Customer order refunded in full." },
      { key: "Refund note", content: "Refund the deposit." },
      ...common(RANK_WINDOW + 200),
    ];
    const { db, keys } = store(rows);
    const ran = rankingRuns(db);
    const search = createLexicalSearch(db, createWordStats(db));
    const found = keys(search("customer order refund", "global", 4));
    expect(found.slice(0, 2).sort()).toEqual(["Order 4242 refund", "Refund note"]);
    // The rest come from the newest RANK_WINDOW matches (orders 200 on), which tie on bm25 and so go by seq.
    expect(found.slice(2)).toEqual(["Order 200", "Order 201"]);
    // bm25 never scored every match of "customer" or "order": only the rare word's, then a window.
    expect(ran).toEqual([
      { match: '"refund"', windowed: false, recent: false, rows: 2 },
      { match: '"customer" OR "order" OR "refund"', windowed: true, recent: false, rows: 4 },
    ]);
  });

  it("ranks only the newest matches when every word is in more items than the window", () => {
    const rows = [
      { key: "Customer order customer order", content: "Customer order." },
      ...common(RANK_WINDOW + 200),
    ];
    const { db, keys } = store(rows);
    const search = createLexicalSearch(db, createWordStats(db));
    const found = keys(search("customer order", "global", 10));
    expect(found).toHaveLength(10);
    expect(found).not.toContain("Customer order customer order");
  });

  it("ranks the newest matches of common words over the index of the newest items, as the whole index would", () => {
    const { db, keys } = store(common(RECENT_ITEMS + 2_500));
    const ran = rankingRuns(db);
    const search = createLexicalSearch(db, createWordStats(db));
    const found = keys(search("customer order", "global", 10));
    expect(ran).toEqual([{ match: '"customer" OR "order"', windowed: true, recent: true, rows: 10 }]);
    // The same window of the same items: identical rows tie on bm25 in either index and go by seq.
    const oldestInWindow = RECENT_ITEMS + 2_500 - RANK_WINDOW;
    expect(found).toEqual(Array.from({ length: 10 }, (_, i) => `Order ${oldestInWindow + i}`));
  });

  it("ranks over the whole index when the newest items hold fewer matches than the window", () => {
    const rows = [
      ...Array.from({ length: RANK_WINDOW + 500 }, (_, i) => ({
        key: `Invoice ${i}`,
        content: "Invoice paid.",
      })),
      ...common(RECENT_ITEMS),
    ];
    const { db, keys } = store(rows);
    const ran = rankingRuns(db);
    const search = createLexicalSearch(db, createWordStats(db));
    const found = keys(search("invoice paid", "global", 3));
    expect(ran.map((r) => r.recent)).toEqual([true, false]);
    expect(found).toEqual(["Invoice 500", "Invoice 501", "Invoice 502"]);
  });

  it("keeps namespaces apart, whether the namespace is a small one or holds most items", () => {
    const rows = [
      ...common(50),
      { key: "Flow order", content: "Customer order for this flow.", namespace: "flow_a" },
      { key: "Flow order 2", content: "Another customer order.", namespace: "flow_a" },
    ];
    const { db, keys } = store(rows);
    const search = createLexicalSearch(db, createWordStats(db));
    expect(keys(search("customer order", "flow_a", 10)).sort()).toEqual(["Flow order", "Flow order 2"]);
    const global = keys(search("customer order", "global", 100));
    expect(global).toHaveLength(50);
    expect(global).not.toContain("Flow order");
    expect(search("customer order", "flow_none", 10)).toEqual([]);
  });

  it("scores the default namespace exactly as a full-text index without namespace tokens does", () => {
    const rows = [
      ...common(40),
      {
        key: "Refund policy",
        content: "Refunds over 200 need the owner's okay; customer orders under that do not.",
      },
    ];
    const { db } = store(rows);
    const plain = new Database(":memory:");
    open.push(() => plain.close());
    plain.exec(
      "CREATE VIRTUAL TABLE f USING fts5(key, content, tags, thread, tokenize = 'porter unicode61 remove_diacritics 2')",
    );
    const insert = plain.prepare("INSERT INTO f (rowid, key, content, tags) VALUES (?, ?, ?, '[]')");
    rows.forEach((r, i) => {
      insert.run(i + 1, r.key, r.content);
    });
    const w = DEFAULT_FIELD_WEIGHTS;
    const expected = plain
      .prepare(
        `SELECT rowid AS seq, bm25(f, ${w.key}, ${w.content}, ${w.tags}, ${w.thread}) AS bm25 FROM f
         WHERE f MATCH '"customer" OR "order" OR "refund"' ORDER BY bm25, rowid LIMIT 10`,
      )
      .all();
    const search = createLexicalSearch(db, createWordStats(db));
    // Equal to the last bit: a token in every row would change bm25's length normalisation.
    expect(search("customer order refund", "global", 10)).toEqual(expected);
  });

  it("weighs the fields as told: a title match leads with the title boosted, a body match with the body boosted", () => {
    const { db, keys } = store([
      { key: "Laminator", content: "Kept in the back room." },
      { key: "Back room", content: "The laminator pouches are on the top shelf." },
    ]);
    const titleFirst = createLexicalSearch(db, createWordStats(db), {
      key: 5,
      content: 1,
      tags: 1,
      thread: 1,
    });
    const bodyFirst = createLexicalSearch(db, createWordStats(db), {
      key: 0,
      content: 1,
      tags: 1,
      thread: 1,
    });
    expect(keys(titleFirst("laminator", "global", 2))).toEqual(["Laminator", "Back room"]);
    // A weight of 0 still matches, it just adds nothing to the score.
    expect(keys(bodyFirst("laminator", "global", 2))).toEqual(["Back room", "Laminator"]);
  });

  it("rejects a negative or non-finite field weight before any query", () => {
    const { db } = store([]);
    const stats = createWordStats(db);
    const bad = { key: -1, content: 1, tags: 1, thread: 1 };
    expect(() => createLexicalSearch(db, stats, bad)).toThrow("field weights must be finite and ≥ 0");
    expect(() => createLexicalSearch(db, stats, { ...bad, key: Number.NaN })).toThrow(RangeError);
  });
});
