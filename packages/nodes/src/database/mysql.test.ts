import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeNode } from "../__tests__/execute-node";
import { items } from "../__tests__/fake-ctx";
import { byItem, serviceCtx, unique } from "../__tests__/service-ctx";
import { mysqlQueryNode } from "./mysql";

// Against the machine's MariaDB (127.0.0.1:3306, root without password): each run makes its own
// database and a user with a password, dropped afterwards.
const db = unique("sy_my");
const user = unique("sy_u");
const base = {
  host: "127.0.0.1",
  port: "3306",
  database: db,
  user,
  password: "right-pw",
  allowedHosts: "127.0.0.1",
};
let admin: mysql.Connection;
const { ctx, close } = serviceCtx({
  my: { type: "mysql", data: base },
  "my-badpw": { type: "mysql", data: { ...base, password: "wrong-pw" } },
  "my-down": { type: "mysql", data: { ...base, port: "1" } },
  "my-elsewhere": { type: "mysql", data: { ...base, allowedHosts: "db.example.com" } },
});

const run = (config: Record<string, unknown>, input = items({})) =>
  executeNode(mysqlQueryNode, {
    config: { credentialId: "my", ...config },
    input,
    ctx,
    resolveForItem: byItem,
  });
const rowCount = async () => {
  const [rows] = await admin.query(`SELECT count(*) AS n FROM ${db}.things`);
  return Number((rows as { n: number }[])[0]!.n);
};

beforeAll(async () => {
  admin = await mysql.createConnection({ host: "127.0.0.1", port: 3306, user: "root" });
  await admin.query(`CREATE DATABASE ${db}`);
  await admin.query(
    `CREATE TABLE ${db}.things (id int AUTO_INCREMENT PRIMARY KEY, name varchar(100) NOT NULL, qty int)`,
  );
  await admin.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'right-pw'`);
  await admin.query(`GRANT ALL ON ${db}.* TO '${user}'@'%'`);
});
afterAll(async () => {
  await admin.query(`DROP DATABASE IF EXISTS ${db}`);
  await admin.query(`DROP USER IF EXISTS '${user}'@'%'`);
  await admin.end();
  await close();
});

describe("mysql.query", () => {
  it("binds each item's values as parameters, so quotes in a value are stored as text, and returns rows as items", async () => {
    const insert = await run(
      { query: "INSERT INTO things (name, qty) VALUES (?, ?)", params: ["=item.name", "=item.qty"] },
      items({ name: "ada", qty: 2 }, { name: "x'); DROP TABLE things; --", qty: 3 }),
    );
    expect(insert).toEqual({ items: [{ json: { affectedRows: 1 } }, { json: { affectedRows: 1 } }] });
    const select = await run({
      query: "SELECT name, qty FROM things WHERE qty >= ? ORDER BY qty",
      params: [2],
    });
    expect(select).toEqual({
      items: [{ json: { name: "ada", qty: 2 } }, { json: { name: "x'); DROP TABLE things; --", qty: 3 } }],
    });
    expect(await run({ query: "SELECT name FROM things WHERE qty > ?", params: [100] })).toEqual({
      items: [],
    });
  });

  it("runs all items in one transaction and rolls every one back when an item fails", async () => {
    const before = await rowCount();
    await expect(
      run(
        { query: "INSERT INTO things (name) VALUES (?)", params: ["=item.name"] },
        items({ name: "first" }, { name: null }, { name: "third" }),
      ),
    ).rejects.toMatchObject({
      code: "service_failed",
      nodeId: "n1",
      itemIndex: 1,
      retryable: false,
      message: `node "n1": MySQL: Column 'name' cannot be null (ER_BAD_NULL_ERROR)`,
    });
    expect(await rowCount()).toBe(before);
  });

  it("reports a syntax error in the server's words, naming the node", async () => {
    await expect(run({ query: "SELEC * FROM things" })).rejects.toMatchObject({
      code: "service_failed",
      retryable: false,
      message: `node "n1": MySQL: You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near 'SELEC * FROM things' at line 1 (ER_PARSE_ERROR)`,
    });
  });

  it("refuses a statement whose parameters are missing and writes nothing", async () => {
    const before = await rowCount();
    await expect(
      run({ query: "INSERT INTO things (name, qty) VALUES (?, ?)", params: ["only-one"] }),
    ).rejects.toMatchObject({
      code: "service_failed",
      retryable: false,
      message: `node "n1": MySQL: Incorrect arguments to mysqld_stmt_execute (ER_WRONG_ARGUMENTS)`,
    });
    expect(await rowCount()).toBe(before);
  });

  it("gives up on a statement that runs past the timeout and drops its connection", async () => {
    await expect(run({ query: "SELECT SLEEP(3)", timeoutMs: 200 })).rejects.toMatchObject({
      code: "service_failed",
      retryable: true,
      message: `node "n1": MySQL: Query inactivity timeout (PROTOCOL_SEQUENCE_TIMEOUT)`,
    });
    // The pool hands out a fresh connection afterwards.
    expect(await run({ query: "SELECT 1 AS one" })).toEqual({ items: [{ json: { one: 1 } }] });
  });

  it("reports a wrong password and an unreachable server", async () => {
    await expect(run({ credentialId: "my-badpw", query: "SELECT 1" })).rejects.toMatchObject({
      code: "service_failed",
      retryable: false,
      message: `node "n1": MySQL: Access denied for user '${user}'@'127.0.0.1' (using password: YES) (ER_ACCESS_DENIED_ERROR)`,
    });
    await expect(run({ credentialId: "my-down", query: "SELECT 1" })).rejects.toMatchObject({
      code: "service_failed",
      retryable: true,
      message: `node "n1": MySQL: connect ECONNREFUSED 127.0.0.1:1`,
    });
  });

  it("refuses a host outside the credential's allowed hosts", async () => {
    await expect(run({ credentialId: "my-elsewhere", query: "SELECT 1" })).rejects.toMatchObject({
      code: "policy_denied",
      message: `credential "my-elsewhere" may not be sent to 127.0.0.1: its allowed hosts are db.example.com`,
    });
  });
});
