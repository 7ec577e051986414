// Latency of the run list (filters, search, sorts, deep pages, status counts) over a seeded database.
// Run from the repo root: npx tsx bench/runs-list.ts [runs] [payloadBytes]
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  applyMigrations,
  createFlowRepo,
  createRunRepo,
  newId,
  openDatabase,
  type RunListQuery,
  sqlDate,
} from "../packages/db/src/index";
import { runChannels } from "../packages/contracts/src/runs";

const N = Number(process.argv[2] ?? 100_000);
const PAYLOAD = Number(process.argv[3] ?? 1024);
const REPEAT = 30;

const statuses = [
  "succeeded",
  "succeeded",
  "succeeded",
  "failed",
  "running",
  "queued",
  "cancelled",
  "waiting",
];

const dir = mkdtempSync(join(tmpdir(), "sy-bench-runs-"));
const db = openDatabase(join(dir, "switchyard.db"));
applyMigrations(db.sql);
const flows = createFlowRepo(db.prisma);
const flowIds: string[] = [];
for (let f = 0; f < 20; f++)
  flowIds.push((await flows.create({ name: `Flow ${f}`, definition: { nodes: [] } })).id);
const repo = createRunRepo(db.prisma);

// Seed: N runs over 30 days, 20 flows; failed runs carry an error message, 1 in 500 payloads mention ACME.
const t0 = performance.now();
const insertRun = db.sql.prepare(
  `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, errorMessage, createdAt, startedAt, endedAt, durationMs)
   VALUES (?, ?, 1, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
);
const filler = "x".repeat(Math.max(0, PAYLOAD - 60));
const start = Date.now() - 30 * 86_400_000;
db.sql.transaction(() => {
  for (let i = 0; i < N; i++) {
    const status = statuses[i % statuses.length]!;
    const at = sqlDate(start + Math.floor((i / N) * 30 * 86_400_000));
    const payload = JSON.stringify({ order: i, customer: i % 500 === 0 ? "ACME Corp" : `c${i}`, filler });
    const error =
      status === "failed" ? (i % 40 === 3 ? "timeout talking to payments" : "HTTP 502 from upstream") : null;
    const finished = ["succeeded", "failed", "cancelled"].includes(status);
    insertRun.run(
      newId(),
      flowIds[i % flowIds.length],
      status,
      runChannels[i % runChannels.length],
      payload,
      at,
      error,
      at,
      at,
      finished ? at : null,
      finished ? (i * 7919) % 60_000 : null,
    );
  }
})();
const seedMs = performance.now() - t0;

async function measure(name: string, fn: () => Promise<unknown>) {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < REPEAT; i++) {
    const s = performance.now();
    const r = (await fn()) as { runs?: unknown[]; total?: number };
    times.push(performance.now() - s);
    rows = r.runs?.length ?? r.total ?? 0;
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(
    `${name.padEnd(52)} p50 ${p(0.5).padStart(7)} ms   p95 ${p(0.95).padStart(7)} ms   rows ${rows}`,
  );
}

const list = (q: RunListQuery) => () => repo.list({ limit: 50, ...q });
let deepCursor: string | undefined;
{
  // A cursor 50 pages deep (2 500 runs in), for the "later page" figure.
  let c: string | undefined;
  for (let i = 0; i < 50; i++) c = (await repo.list({ limit: 50, cursor: c })).nextCursor ?? undefined;
  deepCursor = c;
}
const from = new Date(start + 10 * 86_400_000).toISOString();
const to = new Date(start + 12 * 86_400_000).toISOString();

console.log(
  `runs-list: ${N.toLocaleString()} runs, ${PAYLOAD} B payloads, seeded in ${(seedMs / 1000).toFixed(1)} s, file ${(statSync(db.file).size / 1e6).toFixed(0)} MB; ${REPEAT} repeats each`,
);
await measure("newest first, first page", list({}));
await measure("newest first, page 51 (cursor)", list({ cursor: deepCursor }));
await measure("one flow", list({ flowId: flowIds[3] }));
await measure("status failed", list({ status: "failed" }));
await measure(
  "status running+queued, channel webhook",
  list({ status: ["running", "queued"], channel: "webhook" }),
);
await measure("time range (2 days)", list({ from, to }));
await measure("one flow + time range", list({ flowId: flowIds[3], from, to }));
await measure("sort oldest", list({ sort: "oldest" }));
await measure("sort duration (longest first)", list({ sort: "duration" }));
await measure("search in errors (rare: 'payments')", list({ search: "payments" }));
await measure("search in payloads (rare: 'ACME')", list({ search: "ACME" }));
await measure("search, no match", list({ search: "no-such-text" }));
await measure("status counts, all runs", () => repo.counts({}));
await measure("status counts, one flow", () => repo.counts({ flowId: flowIds[3] }));

await db.close();
rmSync(dir, { recursive: true, force: true });
