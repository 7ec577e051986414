import { redactUrl } from "@switchyard/db/postgres";
import { Redis } from "ioredis";
import { connect } from "node:net";
import pg from "pg";

/** A dependency the process cannot start without; the message is the one line the operator sees. */
export class StartupCheckError extends Error {
  override name = "StartupCheckError";
}

const TIMEOUT_MS = 5_000;

/**
 * Before anything is written: PostgreSQL and Redis must answer. Each failure names its variable, the
 * address (without password) and the driver's reason, so the fix is obvious from the one line.
 */
export async function checkScaleServices(scale: { databaseUrl: string; redisUrl: string }): Promise<void> {
  const c = new pg.Client({ connectionString: scale.databaseUrl, connectionTimeoutMillis: TIMEOUT_MS });
  try {
    await c.connect();
    await c.query("SELECT 1");
  } catch (e) {
    throw new StartupCheckError(
      `cannot reach PostgreSQL at SWITCHYARD_DATABASE_URL=${redactUrl(scale.databaseUrl)}: ${reason(e)}`,
    );
  } finally {
    await c.end().catch(() => {});
  }
  const where = `Redis at SWITCHYARD_REDIS_URL=${redactUrl(scale.redisUrl)}`;
  // ioredis reports a refused connection only as "Connection is closed": a plain TCP connect says why.
  await tcpReachable(scale.redisUrl, 6379).catch((e) => {
    throw new StartupCheckError(`cannot reach ${where}: ${reason(e)}`);
  });
  const r = new Redis(scale.redisUrl, {
    lazyConnect: true,
    connectTimeout: TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  r.on("error", () => {});
  try {
    await r.connect();
    await r.ping();
  } catch (e) {
    throw new StartupCheckError(
      `cannot reach Redis at SWITCHYARD_REDIS_URL=${redactUrl(scale.redisUrl)}: ${reason(e)}`,
    );
  } finally {
    r.disconnect();
  }
}

function reason(e: unknown): string {
  const err = e as { message?: string; code?: string; errors?: { message?: string }[] };
  // Node reports a refused dual-stack connect as an AggregateError with an empty message.
  const message = err.message || err.errors?.map((x) => x.message).join("; ") || err.code || String(e);
  return message.split("\n")[0]!;
}

function tcpReachable(url: string, defaultPort: number): Promise<void> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname.replace(/^\[|\]$/g, ""), port: Number(u.port || defaultPort) });
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    socket.once("connect", () => {
      socket.end();
      resolve();
    });
    socket.once("error", reject);
  });
}
