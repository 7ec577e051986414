import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type Database from "better-sqlite3";

/** prisma/migrations at the repository root. */
export const defaultMigrationsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../prisma/migrations",
);

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

export function readMigrations(dir = defaultMigrationsDir): Migration[] {
  if (!existsSync(dir)) throw new MigrationError(`migrations folder not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^\d{14}_/.test(d.name))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

// Same layout as Prisma's own table, so users with the Prisma CLI see a consistent history.
const ledgerSql = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL,
  "checksum" TEXT NOT NULL,
  "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL,
  "logs" TEXT,
  "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
  "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

export interface MigrateResult {
  applied: string[];
  /** Set when a backup of a non-empty database was taken before applying. */
  backupFile?: string;
}

/**
 * Applies pending migrations in order, each in its own transaction.
 * Refuses (changing nothing) when the database was migrated by a newer Switchyard or a migration
 * file was edited after it was applied: running older code on newer data is how data gets lost.
 */
export function applyMigrations(
  db: Database.Database,
  opts: { dir?: string; backupTo?: (name: string) => string } = {},
): MigrateResult {
  const migrations = readMigrations(opts.dir);
  db.exec(ledgerSql);
  const applied = db
    .prepare(
      `SELECT migration_name AS name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`,
    )
    .all() as { name: string; checksum: string }[];
  const known = new Map(migrations.map((m) => [m.name, m]));
  for (const row of applied) {
    const m = known.get(row.name);
    if (!m) {
      throw new MigrationError(
        `database was migrated by a newer Switchyard (unknown migration ${row.name}); upgrade Switchyard or restore a backup — nothing was changed`,
      );
    }
    if (m.checksum !== row.checksum) {
      throw new MigrationError(
        `migration ${row.name} was modified after it was applied (checksum mismatch); nothing was changed`,
      );
    }
  }
  const done = new Set(applied.map((a) => a.name));
  const pending = migrations.filter((m) => !done.has(m.name));
  const result: MigrateResult = { applied: [] };
  if (pending.length === 0) return result;

  if (done.size > 0 && opts.backupTo) {
    const file = opts.backupTo(pending[0]!.name);
    db.prepare("VACUUM INTO ?").run(file);
    result.backupFile = file;
  }
  const record = db.prepare(
    `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)`,
  );
  // Prisma rebuilds tables (CREATE new, copy, DROP old) under `PRAGMA foreign_keys=OFF`, which SQLite
  // ignores inside a transaction: with keys on, the DROP would cascade and delete child rows. So keys go
  // off around the transaction and integrity is checked before COMMIT instead.
  const keysWereOn = db.pragma("foreign_keys", { simple: true }) === 1;
  db.pragma("foreign_keys = OFF");
  try {
    for (const m of pending) {
      const startedAt = new Date().toISOString();
      db.transaction(() => {
        db.exec(m.sql);
        const broken = db.pragma("foreign_key_check") as { table: string; parent: string }[];
        if (broken.length > 0) {
          const first = broken[0]!;
          throw new MigrationError(
            `migration ${m.name} would leave ${broken.length} rows with dangling references (e.g. ${first.table} → ${first.parent}); nothing was changed`,
          );
        }
        record.run(randomUUID(), m.checksum, new Date().toISOString(), m.name, startedAt);
      })();
      result.applied.push(m.name);
    }
  } finally {
    if (keysWereOn) db.pragma("foreign_keys = ON");
  }
  return result;
}
