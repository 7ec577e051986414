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
import { prefillRuns } from "./prefill-runs";
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

/** Writes `n` succeeded W2 runs with their steps (bench/prefill-runs.ts), then checkpoints the WAL away. */
async function prefill(file: string, flowId: string, n: number) {
  const { openRawDatabase, sqlDate } = (await import(
    pathToFileURL(path.join(checkout!, "packages/db/src/index.ts")).href
  )) as typeof import("../packages/db/src/index");
  const db = openRawDatabase(file);
  prefillRuns(db, flowId, n, sqlDate, (done) =>
    process.stderr.write(`\rprefilled ${done.toLocaleString()} runs`),
  );
  process.stderr.write("\n");
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}
