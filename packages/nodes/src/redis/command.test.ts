import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeNode } from "../__tests__/execute-node";
import { items } from "../__tests__/fake-ctx";
import { serviceCtx, unique } from "../__tests__/service-ctx";
import { redisCommandNode } from "./command";

// Against the machine's Redis (127.0.0.1:6379): keys under a prefix of this run, and an ACL user of
// this run (removed afterwards) for the password test.
const prefix = unique("sy_rd");
const aclUser = unique("sy_u");
const base = { host: "127.0.0.1", port: "6379", allowedHosts: "127.0.0.1" };
const admin = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
const { ctx, close } = serviceCtx({
  rd: { type: "redis", data: base },
  "rd-acl": { type: "redis", data: { ...base, user: aclUser, password: "right-pw" } },
  "rd-badpw": { type: "redis", data: { ...base, user: aclUser, password: "wrong-pw" } },
  "rd-down": { type: "redis", data: { ...base, port: "1" } },
  "rd-elsewhere": { type: "redis", data: { ...base, allowedHosts: "cache.example.com" } },
});

const run = async (config: Record<string, unknown>) => {
  const out = await executeNode(redisCommandNode, {
    config: { credentialId: "rd", ...config },
    input: items({}),
    ctx,
  });
  return "items" in out ? out.items[0]?.json.result : out;
};

beforeAll(async () => {
  await admin.connect();
  await admin.call("ACL", "SETUSER", aclUser, "on", ">right-pw", `~${prefix}:*`, "+@all");
});
afterAll(async () => {
  const keys = await admin.keys(`${prefix}:*`);
  if (keys.length) await admin.del(...keys);
  await admin.call("ACL", "DELUSER", aclUser);
  await admin.quit();
  await close();
});

describe("redis.command", () => {
  it("sets with a TTL, reads back JSON-encoded objects, counts and deletes", async () => {
    const k = `${prefix}:s`;
    expect(await run({ command: "set", key: k, value: { a: 1 }, ttlSeconds: 60 })).toBe("OK");
    expect(await run({ command: "get", key: k })).toBe('{"a":1}');
    const ttl = await admin.ttl(k);
    expect(ttl > 0 && ttl <= 60).toBe(true);
    expect(await run({ command: "incr", key: `${prefix}:n` })).toBe(1);
    expect(await run({ command: "incr", key: `${prefix}:n` })).toBe(2);
    expect(await run({ command: "decr", key: `${prefix}:n` })).toBe(1);
    expect(await run({ command: "expire", key: `${prefix}:n`, ttlSeconds: 30 })).toBe(1);
    expect(await run({ command: "del", key: k })).toBe(1);
    expect(await run({ command: "get", key: k })).toBeNull();
  });

  it("works with hashes and lists", async () => {
    const h = `${prefix}:h`;
    expect(await run({ command: "hset", key: h, field: "name", value: "ada" })).toBe(1);
    expect(await run({ command: "hset", key: h, field: "age", value: 36 })).toBe(1);
    expect(await run({ command: "hget", key: h, field: "age" })).toBe("36");
    expect(await run({ command: "hgetall", key: h })).toEqual({ name: "ada", age: "36" });
    expect(await run({ command: "hdel", key: h, field: "age" })).toBe(1);
    const l = `${prefix}:l`;
    expect(await run({ command: "rpush", key: l, value: "b" })).toBe(1);
    expect(await run({ command: "rpush", key: l, value: "c" })).toBe(2);
    expect(await run({ command: "lpush", key: l, value: "a" })).toBe(3);
    expect(await run({ command: "lrange", key: l, start: 0, stop: -1 })).toEqual(["a", "b", "c"]);
    expect(await run({ command: "llen", key: l })).toBe(3);
    expect(await run({ command: "lpop", key: l })).toBe("a");
    expect(await run({ command: "rpop", key: l })).toBe("c");
  });

  it("publishes to a channel a subscriber receives", async () => {
    const sub = new Redis({ host: "127.0.0.1", port: 6379 });
    const channel = `${prefix}:ch`;
    await sub.subscribe(channel);
    const got = new Promise<string>((resolve) => sub.on("message", (_c, m) => resolve(m)));
    expect(await run({ command: "publish", key: channel, value: { hello: "world" } })).toBe(1);
    expect(await got).toBe('{"hello":"world"}');
    await sub.quit();
  });

  it("refuses a config without the value, field or TTL its command needs, naming the field", async () => {
    await expect(run({ command: "set", key: `${prefix}:x` })).rejects.toMatchObject({
      code: "config_invalid",
      message: `node "n1" field "value": set needs a value`,
    });
    await expect(run({ command: "hget", key: `${prefix}:x` })).rejects.toMatchObject({
      message: `node "n1" field "field": hget needs a field`,
    });
    await expect(run({ command: "flushall", key: "x" })).rejects.toMatchObject({ code: "config_invalid" });
  });

  it("reports the server's error for a command on the wrong kind of value", async () => {
    await admin.set(`${prefix}:text`, "abc");
    await expect(run({ command: "incr", key: `${prefix}:text` })).rejects.toMatchObject({
      code: "service_failed",
      retryable: false,
      message: `node "n1": Redis: ERR value is not an integer or out of range`,
    });
    expect(await admin.get(`${prefix}:text`)).toBe("abc");
  });

  it("authenticates an ACL user, and reports a wrong password without writing anything", async () => {
    expect(await run({ credentialId: "rd-acl", command: "set", key: `${prefix}:acl`, value: "yes" })).toBe(
      "OK",
    );
    await expect(
      run({ credentialId: "rd-badpw", command: "set", key: `${prefix}:nope`, value: "no" }),
    ).rejects.toMatchObject({
      code: "service_failed",
      message: `node "n1": Redis: WRONGPASS invalid username-password pair or user is disabled.`,
    });
    expect(await admin.exists(`${prefix}:nope`)).toBe(0);
  });

  it("reports an unreachable server and refuses a host outside the credential's allowed hosts", async () => {
    await expect(run({ credentialId: "rd-down", command: "get", key: "x" })).rejects.toMatchObject({
      code: "service_failed",
      retryable: true,
      message: `node "n1": Redis: connect ECONNREFUSED 127.0.0.1:1`,
    });
    await expect(run({ credentialId: "rd-elsewhere", command: "get", key: "x" })).rejects.toMatchObject({
      code: "policy_denied",
      message: `credential "rd-elsewhere" may not be sent to 127.0.0.1: its allowed hosts are cache.example.com`,
    });
  });
});
