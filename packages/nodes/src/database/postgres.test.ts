import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeNode } from "../__tests__/execute-node";
import { items } from "../__tests__/fake-ctx";
import { byItem, serviceCtx, unique } from "../__tests__/service-ctx";
import { createHttpClient } from "../http/client";
import { postgresQueryNode } from "./postgres";

// Against the machine's PostgreSQL (127.0.0.1:5432, trust auth): each run makes its own table.
const base = {
  host: "127.0.0.1",
  port: "5432",
  database: "test",
  user: "postgres",
  allowedHosts: "127.0.0.1",
};
const table = unique("sy_pg");
const admin = new pg.Client({ host: "127.0.0.1", port: 5432, database: "test", user: "postgres" });
const { ctx, pools, close } = serviceCtx({
  pg: { type: "postgres", data: base },
  "pg-nouser": { type: "postgres", data: { ...base, user: "nobody_sy_test" } },
  "pg-down": { type: "postgres", data: { ...base, port: "1" } },
  "pg-elsewhere": { type: "postgres", data: { ...base, allowedHosts: "db.example.com" } },
  "not-pg": { type: "redis", data: { host: "127.0.0.1", allowedHosts: "127.0.0.1" } },
});

const run = (config: Record<string, unknown>, input = items({}), c = ctx) =>
  executeNode(postgresQueryNode, {
    config: { credentialId: "pg", ...config },
    input,
    ctx: c,
    resolveForItem: byItem,
  });
const rowCount = async () => Number((await admin.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

beforeAll(async () => {
  await admin.connect();
  await admin.query(`CREATE TABLE ${table} (id serial PRIMARY KEY, name text NOT NULL, qty int)`);
});
afterAll(async () => {
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
  await close();
});

describe("postgres.query", () => {
  it("binds each item's values as parameters, so quotes in a value are stored as text, and returns rows as items", async () => {
    const insert = await run(
      { query: `INSERT INTO ${table} (name, qty) VALUES ($1, $2)`, params: ["=item.name", "=item.qty"] },
      items({ name: "ada", qty: 2 }, { name: "x'); DROP TABLE users; --", qty: 3 }),
    );
    expect(insert).toEqual({ items: [{ json: { affectedRows: 1 } }, { json: { affectedRows: 1 } }] });
    const select = await run({
      query: `SELECT name, qty FROM ${table} WHERE qty >= $1 ORDER BY qty`,
      params: [2],
    });
    expect(select).toEqual({
      items: [{ json: { name: "ada", qty: 2 } }, { json: { name: "x'); DROP TABLE users; --", qty: 3 } }],
    });
    const none = await run({ query: `SELECT name FROM ${table} WHERE qty > $1`, params: [100] });
    expect(none).toEqual({ items: [] });
  });

  it("runs all items in one transaction and rolls every one back when an item fails", async () => {
    const before = await rowCount();
    await expect(
      run(
        { query: `INSERT INTO ${table} (name) VALUES ($1)`, params: ["=item.name"] },
        items({ name: "first" }, { name: null }, { name: "third" }),
      ),
    ).rejects.toMatchObject({
      code: "service_failed",
      nodeId: "n1",
      itemIndex: 1,
      retryable: false,
      message: `node "n1": PostgreSQL: null value in column "name" of relation "${table}" violates not-null constraint (SQLSTATE 23502)`,
    });
    expect(await rowCount()).toBe(before);
  });

  it("reports a syntax error in the server's words, naming the node", async () => {
    await expect(run({ query: `SELEC * FROM ${table}` })).rejects.toMatchObject({
      code: "service_failed",
      retryable: false,
      message: `node "n1": PostgreSQL: syntax error at or near "SELEC" (SQLSTATE 42601)`,
    });
  });

  it("refuses a statement whose parameters are missing and writes nothing", async () => {
    const before = await rowCount();
    await expect(
      run({ query: `INSERT INTO ${table} (name, qty) VALUES ($1, $2)`, params: ["only-one"] }),
    ).rejects.toMatchObject({
      code: "service_failed",
      retryable: false,
      message: `node "n1": PostgreSQL: bind message supplies 1 parameters, but prepared statement "" requires 2 (SQLSTATE 08P01)`,
    });
    expect(await rowCount()).toBe(before);
  });

  it("stops a statement that runs past the timeout on the server", async () => {
    await expect(run({ query: "SELECT pg_sleep(30)", timeoutMs: 200 })).rejects.toMatchObject({
      code: "service_failed",
      message: `node "n1": PostgreSQL: canceling statement due to statement timeout (SQLSTATE 57014)`,
    });
  });

  it("reports a user the server does not know, and an unreachable server", async () => {
    await expect(run({ credentialId: "pg-nouser", query: "SELECT 1" })).rejects.toMatchObject({
      code: "service_failed",
      message: `node "n1": PostgreSQL: role "nobody_sy_test" does not exist (SQLSTATE 28000)`,
    });
    await expect(run({ credentialId: "pg-down", query: "SELECT 1" })).rejects.toMatchObject({
      code: "service_failed",
      retryable: true,
      message: `node "n1": PostgreSQL: connect ECONNREFUSED 127.0.0.1:1`,
    });
  });

  it("refuses a host outside the credential's allowed hosts, a loopback host the guard does not allow, and a credential of another type", async () => {
    await expect(run({ credentialId: "pg-elsewhere", query: "SELECT 1" })).rejects.toMatchObject({
      code: "policy_denied",
      message: `credential "pg-elsewhere" may not be sent to 127.0.0.1: its allowed hosts are db.example.com`,
    });
    const strict = { ...ctx, http: createHttpClient() };
    await expect(run({ query: "SELECT 1" }, items({}), strict)).rejects.toMatchObject({
      code: "policy_denied",
      message: "request to postgres://127.0.0.1:5432 refused: 127.0.0.1 is a loopback address",
    });
    await expect(run({ credentialId: "not-pg", query: "SELECT 1" })).rejects.toMatchObject({
      code: "config_invalid",
      message: `credential "not-pg" is a redis credential; this node needs a postgres credential`,
    });
  });

  it("shares one pool per credential across executions", async () => {
    await run({ query: "SELECT 1 AS one" });
    await run({ query: "SELECT 2 AS two" });
    expect(pools.keys().filter((k) => k.startsWith("postgres:pg:"))).toHaveLength(1);
  });
});
