import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { PrismaClient } from "../generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "../generated/prisma-pg/client";

export interface PostgresHandle {
  kind: "postgres";
  /**
   * Prisma client for repositories. Typed as the SQLite client: both are generated from the same models
   * (prisma/postgres/schema.prisma is derived from prisma/schema.prisma), so the model API is identical.
   */
  prisma: PrismaClient;
  /** Pool for hot paths (admission, claims, checkpoints) with plain parameterised SQL. */
  pool: pg.Pool;
  url: string;
  close(): Promise<void>;
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "<unparseable url>";
  }
}

/** Opens a pool and a Prisma client on the same database. Nothing is queried until first use. */
export function openPostgres(url: string, opts: { max?: number } = {}): PostgresHandle {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 });
  // An idle client losing its connection (database restart) must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  const prisma = new PgPrismaClient({
    adapter: new PrismaPg({ connectionString: url, max: opts.max ?? 10 }),
  });
  return {
    kind: "postgres",
    prisma: prisma as unknown as PrismaClient,
    pool,
    url,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** Runs `fn` in one transaction on one pooled connection. */
export async function inTransaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query("BEGIN");
    const out = await fn(c);
    await c.query("COMMIT");
    return out;
  } catch (e) {
    await c.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}
