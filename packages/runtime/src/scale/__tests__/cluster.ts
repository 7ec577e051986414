import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTempPostgresDatabase } from "@switchyard/db/testing";
import { Redis } from "ioredis";
import { parseConfig } from "../../config";
import { createHost, type Host } from "../../host";
import { createHttpServer, listen } from "../../http/server";
import { createLogger } from "../../logger";
import type { HostExtensions } from "../../triggers/registry";
import type { HostRole } from "../pg-parts";

export const testRedisUrl = process.env.SWITCHYARD_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const redisHint =
  'start it with `redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no` (or set SWITCHYARD_TEST_REDIS_URL)';

/** Fails loudly (never skips) when Redis is not reachable. */
export async function assertRedis(): Promise<void> {
  const r = new Redis(testRedisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  r.on("error", () => {});
  try {
    await r.connect();
    await r.ping();
  } catch (e) {
    throw new Error(`Redis is not reachable at ${testRedisUrl} (${(e as Error).message}): ${redisHint}`);
  } finally {
    r.disconnect();
  }
}

/** Deletes every key of one deployment's prefix (tests share the machine's Redis). */
export async function dropRedisPrefix(prefix: string): Promise<void> {
  const r = new Redis(testRedisUrl);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await r.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== "0");
  } finally {
    r.disconnect();
  }
}

/** One scale-out deployment for a test: its own PostgreSQL database, Redis prefix and data dir. */
export async function createDeployment(extra: Record<string, string> = {}) {
  await assertRedis();
  const db = await createTempPostgresDatabase();
  const prefix = `sytest-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const dir = mkdtempSync(path.join(tmpdir(), "sy-scale-"));
  const env: Record<string, string> = {
    SWITCHYARD_DATA_DIR: dir,
    SWITCHYARD_DATABASE_URL: db.url,
    SWITCHYARD_REDIS_URL: testRedisUrl,
    SWITCHYARD_REDIS_PREFIX: prefix,
    // Every process must read the same credentials: the key comes from the environment, not a per-dir file.
    SWITCHYARD_ENCRYPTION_KEY: "c3dpdGNoeWFyZC10ZXN0LWtleS0zMi1ieXRlcy1vayE=",
    SWITCHYARD_SMTP_PORT: "0",
    LOG_LEVEL: "silent",
    ...extra,
  };
  return {
    env,
    dbUrl: db.url,
    prefix,
    async drop() {
      await db.drop();
      await dropRedisPrefix(prefix);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A started in-process host of one role; web hosts serve /hooks on 127.0.0.1. */
export async function startRole(
  env: Record<string, string>,
  role: HostRole,
  extensions: HostExtensions = {},
): Promise<{ host: Host; url: string; close(): Promise<void> }> {
  const config = parseConfig(env);
  const host = await createHost(config, createLogger("silent"), { seed: false, role, ...extensions });
  await host.start();
  if (role === "worker") return { host, url: "", close: () => host.close() };
  const server = createHttpServer(host, { hooks: host.services.webhookHandler });
  const { port } = await listen(server, 0, "127.0.0.1");
  return {
    host,
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await host.close();
    },
  };
}
