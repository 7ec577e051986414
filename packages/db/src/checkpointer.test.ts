import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { INLINE_CHECKPOINT_PAGES, startCheckpointer } from "./checkpointer";
import { openDatabase, openRawDatabase } from "./open";

const dirs: string[] = [];
const tmpFile = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "sy-checkpointer-"));
  dirs.push(dir);
  return path.join(dir, "t.db");
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe("background WAL checkpoints", () => {
  it("copy committed pages into the database file while the writer never checkpoints itself", async () => {
    const file = tmpFile();
    const db = openRawDatabase(file);
    db.pragma("wal_autocheckpoint = 0");
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
    const before = statSync(file).size;
    const insert = db.prepare("INSERT INTO t (body) VALUES (?)");
    db.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run("x".repeat(2000));
    })();
    const checkpointer = startCheckpointer(file, { everyMs: 20 });
    await until(() => statSync(file).size > before + 500 * 2000, "the database file to hold the rows");
    await checkpointer.stop();
    db.close();
    const reopened = openRawDatabase(file);
    expect(reopened.prepare("SELECT count(*) FROM t").pluck().get()).toBe(500);
    reopened.close();
  });

  it("keep the WAL from growing past the inline limit under steady writes", async () => {
    const file = tmpFile();
    const handle = openDatabase(file, { backgroundCheckpoints: true });
    const db = handle.sql;
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(INLINE_CHECKPOINT_PAGES);
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
    const insert = db.prepare("INSERT INTO t (body) VALUES (?)");
    const batch = db.transaction(() => {
      for (let i = 0; i < 20; i++) insert.run("y".repeat(3000));
    });
    // ≈ 3 × INLINE_CHECKPOINT_PAGES pages written, yielding between batches as the group commit does.
    for (let i = 0; i < 600; i++) {
      batch();
      if (i % 10 === 0) await new Promise((r) => setImmediate(r));
    }
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    // The WAL file is reused from its start once checkpointed, so its size is its high-water mark: without
    // restarts it would hold all ≈ 36 MB written.
    expect(statSync(`${file}-wal`).size).toBeLessThan(2 * INLINE_CHECKPOINT_PAGES * (pageSize + 24));
    expect(db.prepare("SELECT count(*) FROM t").pluck().get()).toBe(12000);
    await handle.close();
  });

  it("report a connection that cannot open instead of failing silently", async () => {
    const errors: string[] = [];
    const dir = path.dirname(tmpFile());
    const checkpointer = startCheckpointer(dir, { onError: (m) => errors.push(m) });
    await until(() => errors.length > 0, "the error report");
    expect(errors[0]).toMatch(/directory|unable to open/i);
    await checkpointer.stop();
  });
});
