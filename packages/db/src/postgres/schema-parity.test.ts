// prisma/schema.prisma is the one schema source: the existing drift test ties it to prisma/migrations
// (SQLite); these tie prisma/postgres to the same source, so neither database can fall behind the other.
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import {
  postgresMigrationsDir,
  postgresSchemaPath,
  sqliteSchemaPath,
  toPostgresSchema,
} from "../../scripts/postgres-schema";
import { tempDatabase } from "../__tests__/temp-db";
import { createTempPostgresDatabase } from "../__tests__/temp-postgres";
import { MigrationError } from "../migrate";
import { applyPostgresMigrations } from "./migrate";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function migratedPool() {
  const db = await createTempPostgresDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  // pool.end() resolves once its clients are asked to end, not once their sockets are closed. Dropping the
  // database WITH (FORCE) can then reach a backend whose client is still closing: the client receives
  // "terminating connection due to administrator command", and pg-pool's idle listener, still attached to it,
  // re-emits that on the pool. Without a pool listener Vitest reports an unhandled error. At teardown it is expected.
  pool.on("error", () => {});
  cleanups.push(async () => {
    await pool.end();
    await db.drop();
  });
  return pool;
}

describe("the PostgreSQL schema", () => {
  it("is exactly the rewrite of prisma/schema.prisma (run `npx tsx scripts/postgres-schema.ts` after editing it)", () => {
    expect(readFileSync(postgresSchemaPath, "utf8")).toBe(
      toPostgresSchema(readFileSync(sqliteSchemaPath, "utf8")),
    );
  });

  it("names the line it expected when the source schema changed shape", () => {
    expect(() => toPostgresSchema('datasource db {\n  provider = "mysql"\n}')).toThrow(
      'prisma/schema.prisma: expected the line `provider = "sqlite"` to rewrite',
    );
  });

  it("migrations create the same tables, columns and indexes as the SQLite migrations (add a prisma/postgres migration with every SQLite one)", async () => {
    const lite = tempDatabase();
    cleanups.push(() => lite.cleanup());
    const liteColumns = (
      lite.sql
        .prepare(
          `SELECT m.name AS t, p.name AS c, p."notnull" AS nn FROM sqlite_master m JOIN pragma_table_info(m.name) p
           WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_prisma_migrations'
             AND m.name <> 'RunSearch' AND substr(m.name, 1, 10) <> 'RunSearch_'`,
        )
        .all() as { t: string; c: string; nn: number }[]
    ).map((r) => `${r.t}.${r.c}${r.nn ? " not null" : ""}`);
    const liteIndexes = (
      lite.sql
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'`)
        .all() as { name: string }[]
    ).map((r) => r.name);

    const pool = await migratedPool();
    await applyPostgresMigrations(pool);
    const { rows: cols } = await pool.query<{ t: string; c: string; nn: string }>(
      `SELECT table_name AS t, column_name AS c, is_nullable AS nn FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    const { rows: idx } = await pool.query<{ name: string }>(
      `SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey'`,
    );
    expect(cols.map((r) => `${r.t}.${r.c}${r.nn === "NO" ? " not null" : ""}`).sort()).toEqual(
      liteColumns.sort(),
    );
    expect(idx.map((r) => r.name).sort()).toEqual(liteIndexes.sort());
  }, 30_000);

  it("applies once when several processes start at the same time, and not again on the next start", async () => {
    const pool = await migratedPool();
    const results = await Promise.all([1, 2, 3].map(() => applyPostgresMigrations(pool)));
    // One process applies every migration; the others wait on the lock and find nothing left to do.
    const all = readdirSync(postgresMigrationsDir, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, all.length]);
    expect((await applyPostgresMigrations(pool)).applied).toEqual([]);
  }, 30_000);

  it("refuses a database migrated by a newer version and changes nothing", async () => {
    const pool = await migratedPool();
    await applyPostgresMigrations(pool);
    await pool.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ('x', 'y', now(), '29990101000000_future', 1)`,
    );
    await expect(applyPostgresMigrations(pool)).rejects.toThrow(
      new MigrationError(
        "database was migrated by a newer Switchyard (unknown migration 29990101000000_future); upgrade Switchyard or restore a backup — nothing was changed",
      ),
    );
  }, 30_000);
});
