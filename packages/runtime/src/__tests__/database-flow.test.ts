import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postHook, startTestHost, waitForRun } from "./test-host";

// postgres.query inside a real host: credential from the vault, the guard and the shared pools from the
// host's ctx, per-item parameters resolved by the engine, and one transaction per node execution.
const table = `sy_flow_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
const admin = new pg.Client({ host: "127.0.0.1", port: 5432, database: "test", user: "postgres" });
let t: Awaited<ReturnType<typeof startTestHost>>;
let closed = false;

const flow = (credentialId: string) => ({
  nodes: [
    { id: "hook", type: "trigger.webhook", config: { path: "orders", responseMode: "sync" } },
    { id: "lines", type: "flow.split", config: { path: "body.lines" } },
    {
      id: "save",
      type: "postgres.query",
      config: {
        credentialId,
        query: `INSERT INTO ${table} (sku, qty) VALUES ($1, $2) RETURNING sku, qty`,
        params: ["=item.sku", "=item.qty"],
      },
    },
    { id: "respond", type: "webhook.respond", config: { status: 200, body: "=items" } },
  ],
  edges: [
    { from: { node: "hook", port: "main" }, to: { node: "lines", port: "main" } },
    { from: { node: "lines", port: "main" }, to: { node: "save", port: "main" } },
    { from: { node: "save", port: "main" }, to: { node: "respond", port: "main" } },
  ],
});

beforeAll(async () => {
  await admin.connect();
  await admin.query(`CREATE TABLE ${table} (sku text NOT NULL, qty int NOT NULL CHECK (qty > 0))`);
  t = await startTestHost();
  await t.host.settings.set("http.allowHosts", ["127.0.0.1"]);
  await t.host.services.reloadHttp();
  const cred = await t.host.services.vault.create({
    name: "Shop DB",
    type: "postgres",
    data: { host: "127.0.0.1", port: "5432", database: "test", user: "postgres", allowedHosts: "127.0.0.1" },
  });
  const { id } = await t.host.flows.create({ name: "Orders", definition: flow(cred.id) });
  await t.host.control.setActive(id, true);
});
afterAll(async () => {
  if (!closed) await t?.close();
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
});

describe("postgres.query in a flow", () => {
  it("inserts every split item with its own parameters and answers with the returned rows", async () => {
    const res = await postHook(t.url, "orders", {
      lines: [
        { sku: "A-1", qty: 2 },
        { sku: "B-'2", qty: 5 },
      ],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { sku: "A-1", qty: 2 },
      { sku: "B-'2", qty: 5 },
    ]);
    expect((await admin.query(`SELECT sku, qty FROM ${table} ORDER BY sku`)).rows).toEqual([
      { sku: "A-1", qty: 2 },
      { sku: "B-'2", qty: 5 },
    ]);
    expect(t.host.services.pools.keys().filter((k) => k.startsWith("postgres:"))).toHaveLength(1);
  });

  it("rolls back the whole execution when one item breaks a constraint, and the run fails naming the node", async () => {
    const before = (await admin.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
    const res = await postHook(t.url, "orders", {
      lines: [
        { sku: "C-3", qty: 1 },
        { sku: "D-4", qty: 0 },
      ],
    });
    expect(res.status).toBe(500);
    const { runId } = ((await res.json()) as { error: { runId: string } }).error;
    const run = await waitForRun(t.host, runId);
    expect(run.status).toBe("failed");
    expect(run.steps.find((s) => s.nodeId === "save")).toMatchObject({ status: "failed" });
    expect(JSON.stringify(run)).toContain(
      `node \\"save\\": PostgreSQL: new row for relation \\"${table}\\" violates check constraint \\"${table}_qty_check\\" (SQLSTATE 23514)`,
    );
    expect((await admin.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n).toBe(before);
  });

  it("closes the shared pool when the host stops", async () => {
    const pools = t.host.services.pools;
    expect(pools.keys().filter((k) => k.startsWith("postgres:"))).toHaveLength(1);
    await t.close();
    closed = true;
    expect(pools.keys()).toEqual([]);
  });
});
