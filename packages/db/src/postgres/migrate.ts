import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { MigrationError, type MigrateResult, readMigrations } from "../migrate";

/** prisma/postgres/migrations at the repository root. */
export const defaultPostgresMigrationsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../prisma/postgres/migrations",
);

const ledgerSql = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// Any number of processes may start at once against one database: one migrates, the others wait on this lock.
const lockKey = 0x5357_4d47; // "SWMG"

/**
 * The PostgreSQL twin of `applyMigrations`: pending migrations in order, each in its own transaction,
 * recorded in Prisma's `_prisma_migrations` layout; refuses a database migrated by a newer version or an
 * edited migration. DDL is transactional in PostgreSQL, so a failed migration leaves nothing behind.
 */
export async function applyPostgresMigrations(
  pool: pg.Pool,
  opts: { dir?: string } = {},
): Promise<MigrateResult> {
  const migrations = readMigrations(opts.dir ?? defaultPostgresMigrationsDir);
  const c = await pool.connect();
  try {
    await c.query("SELECT pg_advisory_lock($1)", [lockKey]);
    await c.query(ledgerSql);
    const { rows: applied } = await c.query<{ name: string; checksum: string }>(
      `SELECT migration_name AS name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`,
    );
    const known = new Map(migrations.map((m) => [m.name, m]));
    for (const row of applied) {
      const m = known.get(row.name);
      if (!m)
        throw new MigrationError(
          `database was migrated by a newer Switchyard (unknown migration ${row.name}); upgrade Switchyard or restore a backup — nothing was changed`,
        );
      if (m.checksum !== row.checksum)
        throw new MigrationError(
          `migration ${row.name} was modified after it was applied (checksum mismatch); nothing was changed`,
        );
    }
    const done = new Set(applied.map((a) => a.name));
    const result: MigrateResult = { applied: [] };
    for (const m of migrations.filter((x) => !done.has(x.name))) {
      const startedAt = new Date();
      await c.query("BEGIN");
      try {
        await c.query(m.sql);
        await c.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, $4, 1)`,
          [randomUUID(), m.checksum, m.name, startedAt],
        );
        await c.query("COMMIT");
      } catch (e) {
        await c.query("ROLLBACK");
        throw new MigrationError(
          `migration ${m.name} failed; nothing of it was applied: ${(e as Error).message}`,
        );
      }
      result.applied.push(m.name);
    }
    return result;
  } finally {
    await c.query("SELECT pg_advisory_unlock($1)", [lockKey]).catch(() => {});
    c.release();
  }
}
