import pg from "pg";
import { applyPostgresMigrations } from "../postgres/migrate";
import { openPostgres, type PostgresHandle } from "../postgres/open";

/** The server tests create their databases on; the machines and CI run PostgreSQL here. */
export const testPostgresUrl =
  process.env.SWITCHYARD_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432";
const startHint =
  "start it with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` (or set SWITCHYARD_TEST_POSTGRES_URL)";

/** Fails loudly (never skips) when PostgreSQL is not reachable. */
async function admin(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: `${testPostgresUrl}/postgres` });
  try {
    await c.connect();
  } catch (e) {
    throw new Error(
      `PostgreSQL is not reachable at ${testPostgresUrl} (${(e as Error).message}): ${startHint}`,
    );
  }
  return c;
}

/** A fresh, uniquely named, empty database; `drop()` removes it. */
export async function createTempPostgresDatabase(): Promise<{
  url: string;
  name: string;
  drop(): Promise<void>;
}> {
  const name = `sy_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const c = await admin();
  try {
    await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
  return {
    url: `${testPostgresUrl}/${name}`,
    name,
    async drop() {
      const a = await admin();
      try {
        await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
}

/** A migrated PostgreSQL database of its own, opened; cleanup() closes and drops it. */
export async function tempPostgres(): Promise<PostgresHandle & { cleanup(): Promise<void> }> {
  const db = await createTempPostgresDatabase();
  const handle = openPostgres(db.url, { max: 4 });
  await applyPostgresMigrations(handle.pool);
  return {
    ...handle,
    async cleanup() {
      await handle.close();
      await db.drop();
    },
  };
}
