import { redisCredentialFields } from "@switchyard/contracts/credentials";
import type { Redis } from "ioredis";
import { z } from "zod";
import { NETWORK_CODES, serviceError } from "../connections/errors";
import { serverTarget, serverTimeoutMs, useShared } from "../connections/server";
import { defineNode } from "../define";
import { NodeError } from "../errors";

const fields = redisCredentialFields.omit({ allowedHosts: true });

/**
 * The safe subset: single-key reads and writes, hashes, lists and publish. Nothing that scans or
 * flushes the keyspace, runs scripts or changes the server (no KEYS, FLUSHALL, EVAL, CONFIG).
 */
const commands = [
  "get",
  "set",
  "del",
  "incr",
  "decr",
  "expire",
  "hget",
  "hset",
  "hgetall",
  "hdel",
  "lpush",
  "rpush",
  "lpop",
  "rpop",
  "lrange",
  "llen",
  "publish",
] as const;
type Command = (typeof commands)[number];
const needsValue = new Set<Command>(["set", "hset", "lpush", "rpush", "publish"]);
const needsField = new Set<Command>(["hget", "hset", "hdel"]);

const config = z
  .object({
    credentialId: z.string().min(1).describe("Redis credential"),
    command: z.enum(commands).describe("Redis command (a safe subset)"),
    key: z.string().min(1).max(1024).describe("Key (the channel for publish)"),
    value: z
      .unknown()
      .optional()
      .describe("Value for set, hset, lpush, rpush, publish; objects are stored as JSON"),
    field: z.string().min(1).optional().describe("Hash field for hget, hset, hdel"),
    ttlSeconds: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Expiry in seconds: for set (optional) and expire"),
    start: z.number().int().default(0).describe("lrange: first index"),
    stop: z.number().int().default(-1).describe("lrange: last index (-1 is the end)"),
    timeoutMs: serverTimeoutMs("Connection and command"),
  })
  .superRefine((c, ctx) => {
    if (needsValue.has(c.command) && c.value === undefined)
      ctx.addIssue({ code: "custom", path: ["value"], message: `${c.command} needs a value` });
    if (needsField.has(c.command) && c.field === undefined)
      ctx.addIssue({ code: "custom", path: ["field"], message: `${c.command} needs a field` });
    if (c.command === "expire" && c.ttlSeconds === undefined)
      ctx.addIssue({ code: "custom", path: ["ttlSeconds"], message: "expire needs ttlSeconds" });
  });
type Config = z.infer<typeof config>;

/** Strings go as they are; anything else as JSON, so an object reads back as the same object. */
const encode = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

async function send(client: Redis, c: Config): Promise<unknown> {
  const value = encode(c.value);
  switch (c.command) {
    case "get":
      return client.get(c.key);
    case "set":
      return c.ttlSeconds ? client.set(c.key, value, "EX", c.ttlSeconds) : client.set(c.key, value);
    case "del":
      return client.del(c.key);
    case "incr":
      return client.incr(c.key);
    case "decr":
      return client.decr(c.key);
    case "expire":
      return client.expire(c.key, c.ttlSeconds!);
    case "hget":
      return client.hget(c.key, c.field!);
    case "hset":
      return client.hset(c.key, c.field!, value);
    case "hgetall":
      return client.hgetall(c.key);
    case "hdel":
      return client.hdel(c.key, c.field!);
    case "lpush":
      return client.lpush(c.key, value);
    case "rpush":
      return client.rpush(c.key, value);
    case "lpop":
      return client.lpop(c.key);
    case "rpop":
      return client.rpop(c.key);
    case "lrange":
      return client.lrange(c.key, c.start, c.stop);
    case "llen":
      return client.llen(c.key);
    case "publish":
      return client.publish(c.key, value);
  }
}

/** Runs one Redis command per item; the reply comes out as `{ command, key, result }`. */
export const redisCommandNode = defineNode({
  type: "redis.command",
  typeVersion: 1,
  title: "Redis command",
  description: "Runs one Redis command from a safe subset (get, set with TTL, incr, hashes, lists, publish).",
  category: "data",
  icon: "database",
  ports: ["main"],
  runMode: "perItem",
  config,
  example: {
    credentialId: "cred-redis",
    command: "set",
    key: "session:{{ item.id }}",
    value: "{{ item }}",
    ttlSeconds: 3600,
  },
  async execute({ config: c, ctx }) {
    const target = await serverTarget(ctx, {
      credentialId: c.credentialId,
      type: "redis",
      fields,
      scheme: "redis",
    });
    const { port, user, password, db } = target.fields;
    const fail = (err: unknown) => {
      if (err instanceof NodeError) return err;
      const code = (err as { code?: string }).code;
      return serviceError(ctx.nodeId, "Redis", err, { retryable: !!code && NETWORK_CODES.has(code) });
    };
    try {
      const result = await useShared(
        ctx,
        target.poolKey,
        {
          async open() {
            // One multiplexed connection per credential; it reconnects by itself with backoff. Commands
            // fail at once while it is down instead of queueing (no offline queue).
            const { Redis: Client } = await import("ioredis");
            const client = new Client({
              host: target.address.address,
              port: Number(port),
              ...(user ? { username: user } : {}),
              ...(password ? { password } : {}),
              db: Number(db),
              lazyConnect: true,
              connectTimeout: c.timeoutMs,
              commandTimeout: c.timeoutMs,
              maxRetriesPerRequest: 1,
              enableOfflineQueue: false,
              retryStrategy: (times) => Math.min(times * 200, 5000),
            });
            // connect() rejects with a bare "Connection is closed."; the error event says why.
            let why: unknown;
            client.on("error", (err) => {
              why ??= err;
            });
            try {
              await client.connect();
            } catch (err) {
              client.disconnect();
              throw why ?? err;
            }
            return client;
          },
          close: async (client) => {
            await client.quit().catch(() => client.disconnect());
          },
        },
        (client) => send(client, c),
      );
      return { items: [{ json: { command: c.command, key: c.key, result } }] };
    } catch (err) {
      throw fail(err);
    }
  },
});
