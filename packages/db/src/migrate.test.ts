import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyMigrations, defaultMigrationsDir, readMigrations } from "./migrate";
import { openRawDatabase } from "./open";

const dirs: string[] = [];
function tempDir() {
  const d = mkdtempSync(path.join(tmpdir(), "switchyard-mig-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tableNames(db: ReturnType<typeof openRawDatabase>) {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").all() as { name: string }[]
  ).map((r) => r.name);
}

describe("applyMigrations", () => {
  it("creates every table on a fresh database and records each migration once", () => {
    const db = openRawDatabase(path.join(tempDir(), "a.db"));
    const result = applyMigrations(db);
    expect(result.applied).toEqual(readMigrations().map((m) => m.name));
    expect(tableNames(db)).toEqual(
      expect.arrayContaining(["Flow", "FlowVersion", "Run", "Step", "_prisma_migrations"]),
    );
    expect(applyMigrations(db).applied).toEqual([]);
    db.close();
  });

  it("refuses a database migrated by a newer version and changes nothing", () => {
    const db = openRawDatabase(path.join(tempDir(), "b.db"));
    applyMigrations(db);
    db.prepare(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ('x','y','2030-01-01','29990101000000_future','2030-01-01',1)`,
    ).run();
    const before = tableNames(db);
    expect(() => applyMigrations(db)).toThrow(
      "database was migrated by a newer Switchyard (unknown migration 29990101000000_future); upgrade Switchyard or restore a backup — nothing was changed",
    );
    expect(tableNames(db)).toEqual(before);
    db.close();
  });

  it("backs up a non-empty database before applying a new migration and keeps existing rows", () => {
    const work = tempDir();
    const migDir = path.join(work, "migrations");
    cpSync(defaultMigrationsDir, migDir, { recursive: true });
    const db = openRawDatabase(path.join(work, "c.db"));
    applyMigrations(db, { dir: migDir });
    db.prepare(`INSERT INTO "Setting" (key, value, updatedAt) VALUES ('k', '"v"', '2026-01-01')`).run();

    mkdirSync(path.join(migDir, "29990101000000_add_note"));
    writeFileSync(
      path.join(migDir, "29990101000000_add_note", "migration.sql"),
      `ALTER TABLE "Setting" ADD COLUMN "note" TEXT;`,
    );
    const result = applyMigrations(db, {
      dir: migDir,
      backupTo: (n) => path.join(work, `backup-before-${n}.db`),
    });
    expect(result.applied).toEqual(["29990101000000_add_note"]);
    expect(result.backupFile && existsSync(result.backupFile)).toBe(true);
    expect(db.prepare(`SELECT value, note FROM "Setting" WHERE key='k'`).get()).toEqual({
      value: '"v"',
      note: null,
    });
    db.close();
  });

  it("keeps child rows when a migration rebuilds a parent table the way Prisma does", () => {
    const work = tempDir();
    const migDir = path.join(work, "migrations");
    cpSync(defaultMigrationsDir, migDir, { recursive: true });
    const db = openRawDatabase(path.join(work, "e.db"));
    applyMigrations(db, { dir: migDir });
    db.prepare(`INSERT INTO "Flow" (id, name, updatedAt) VALUES ('f', 'F', '2026-01-01')`).run();
    db.prepare(
      `INSERT INTO "FlowVersion" (id, flowId, version, definition) VALUES ('v', 'f', 1, '{}')`,
    ).run();
    mkdirSync(path.join(migDir, "29990101000000_rebuild_flow"));
    writeFileSync(
      path.join(migDir, "29990101000000_rebuild_flow", "migration.sql"),
      `PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Flow" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT NOT NULL, "description" TEXT NOT NULL DEFAULT '',
  "active" BOOLEAN NOT NULL DEFAULT false, "currentVersion" INTEGER NOT NULL DEFAULT 0, "activeVersion" INTEGER,
  "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" DATETIME NOT NULL, "tag" TEXT NOT NULL DEFAULT 'x');
INSERT INTO "new_Flow" ("id", "name", "updatedAt") SELECT "id", "name", "updatedAt" FROM "Flow";
DROP TABLE "Flow";
ALTER TABLE "new_Flow" RENAME TO "Flow";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;`,
    );
    applyMigrations(db, { dir: migDir });
    expect(db.prepare(`SELECT COUNT(*) n FROM "FlowVersion"`).get()).toEqual({ n: 1 });
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    db.close();
  });

  it("rolls back a failing migration completely and leaves it pending", () => {
    const work = tempDir();
    const migDir = path.join(work, "migrations");
    cpSync(defaultMigrationsDir, migDir, { recursive: true });
    const db = openRawDatabase(path.join(work, "d.db"));
    applyMigrations(db, { dir: migDir });
    mkdirSync(path.join(migDir, "29990101000000_broken"));
    writeFileSync(
      path.join(migDir, "29990101000000_broken", "migration.sql"),
      `CREATE TABLE "Half" (id TEXT); INSERT INTO "NoSuchTable" VALUES (1);`,
    );
    expect(() => applyMigrations(db, { dir: migDir })).toThrow(/no such table: NoSuchTable/);
    expect(tableNames(db)).not.toContain("Half");
    db.close();
  });
});
