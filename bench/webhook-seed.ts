/**
 * Creates a data dir holding W2 and W1, active, with the code of CHECKOUT (a repo root), so every version
 * measured serves a database its own migrations made:
 *
 *   npx tsx bench/webhook-seed.ts CHECKOUT DATA_DIR [STORED]   → prints {"W2": flowId, "W1": flowId}
 *
 * Retention is off (a policy with no limits), so the runs a benchmark makes are all there to check.
 * STORED (default 0) finished W2 runs, each with its three steps, are written first, as a long-lived
 * install would hold them: the hot path is measured against that database.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { w1, w2 } from "./webhook-targets";

const [checkout, dataDir, storedArg] = process.argv.slice(2);
const stored = Number(storedArg ?? 0);
if (!checkout || !dataDir) throw new Error("usage: webhook-seed.ts CHECKOUT DATA_DIR");
const runtime = (await import(
  pathToFileURL(path.join(checkout, "packages/runtime/src/index.ts")).href
)) as typeof import("../packages/runtime/src/index");
const host = await runtime.createHost(
  runtime.parseConfig({ SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_SMTP_PORT: "0" }),
  runtime.createLogger("silent"),
  { seed: false },
);
const ids: Record<string, string> = {};
for (const [name, def] of [
  ["W2", w2],
  ["W1", w1],
] as const) {
  const { id } = await host.flows.create({ name, definition: def });
  await host.control.setActive(id, true);
  ids[name] = id;
}
await host.settings.set("retention.policy", { flows: {} });
await host.close();
if (stored > 0) await prefill(path.join(dataDir, "switchyard.db"), ids.W2!, stored);
console.log(JSON.stringify(ids));

/** Bulk-writes `n` succeeded W2 runs with their steps through the raw connection (the schema's triggers fire). */
async function prefill(file: string, flowId: string, n: number) {
  const { openRawDatabase, sqlDate } = (await import(
    pathToFileURL(path.join(checkout!, "packages/db/src/index.ts")).href
  )) as typeof import("../packages/db/src/index");
  const db = openRawDatabase(file);
  const cols = (table: string) =>
    new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name));
  const runCols = cols("Run");
  const run = db.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, createdAt, startedAt, endedAt, durationMs${runCols.has("output") ? ", output" : ""})
     VALUES (?, ?, 1, 'succeeded', 'webhook', ?, ?, 1, ?, ?, ?, 2${runCols.has("output") ? ", ?" : ""})`,
  );
  const step = db.prepare(
    `INSERT INTO "Step" (id, runId, stepId, nodeId, status, port, input, output, startedAt, endedAt, durationMs)
     VALUES (?, ?, ?, ?, 'succeeded', 'main', ?, ?, ?, ?, 0)`,
  );
  const start = Date.now() - 7 * 86_400_000;
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const at = sqlDate(start + Math.floor((i / n) * 7 * 86_400_000));
      const id = `prefill${i.toString(36).padStart(10, "0")}`;
      const payload = JSON.stringify({ body: { n: i }, headers: { "content-type": "application/json" } });
      const out = JSON.stringify([{ ok: true, n: i + 1 }]);
      run.run(id, flowId, payload, at, at, at, at, ...(runCols.has("output") ? [out] : []));
      for (const node of ["hook", "set", "respond"])
        step.run(`${id}-${node}`, id, node, node, payload, out, at, at);
    }
  });
  for (let i = 0; i < n; i += 20_000) {
    batch(i, Math.min(n, i + 20_000));
    process.stderr.write(`\rprefilled ${Math.min(n, i + 20_000).toLocaleString()} runs`);
  }
  process.stderr.write("\n");
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}
