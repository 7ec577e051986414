// Latency of the run list (filters, search, sorts, deep pages, status counts) over a seeded database.
// Run from the repo root: npx tsx bench/runs-list.ts [runs] [payloadBytes] [--write]
// --write replaces the figures between the runs-list markers in docs/benchmarks.md.
// --db FILE keeps the seeded database for another run (a second run reuses it and skips the seed).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  applyMigrations,
  createFlowRepo,
  createRunRepo,
  defaultMigrationsDir,
  newId,
  openDatabase,
  readMigrations,
  type RunListQuery,
  sqlDate,
} from "../packages/db/src/index";
import { runChannels } from "../packages/contracts/src/runs";

const dbArg = process.argv.indexOf("--db");
const keepFile = dbArg > 0 ? process.argv[dbArg + 1] : undefined;
const args = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--db");
const write = process.argv.includes("--write");
const N = Number(args[0] ?? 1_000_000);
const PAYLOAD = Number(args[1] ?? 1024);
const REPEAT = 20;
const BUDGET_MS = 300;

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
const file = keepFile ?? join(dir, "switchyard.db");
const reuse = keepFile !== undefined && existsSync(keepFile);
const db = openDatabase(file);
const start = Date.now() - 30 * 86_400_000;
let seedMs = 0;
let upgradeMs = 0;
if (!reuse) {
  // Seed as a database of the version before this one (only the first migration), then time the upgrade:
  // what a user with a million runs waits for at the first start of this version (indexes, counts, search).
  const all = readMigrations();
  const before = mkdtempSync(join(tmpdir(), "sy-bench-migrations-"));
  cpSync(join(defaultMigrationsDir, all[0]!.name), join(before, all[0]!.name), { recursive: true });
  applyMigrations(db.sql, { dir: before });
  rmSync(before, { recursive: true, force: true });
  const flows = createFlowRepo(db.prisma);
  for (let f = 0; f < 20; f++) await flows.create({ name: `Flow ${f}`, definition: { nodes: [] } });
  const flowIds = db.sql.prepare(`SELECT id FROM "Flow" ORDER BY name`).pluck().all() as string[];
  // N runs over 30 days, 20 flows; failed runs carry an error message, 1 in 500 payloads mention ACME.
  // Bulk inserts through one prepared statement, 50 000 per transaction.
  const t0 = performance.now();
  const insertRun = db.sql.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, errorMessage, createdAt, startedAt, endedAt, durationMs)
     VALUES (?, ?, 1, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
  );
  const filler = "x".repeat(Math.max(0, PAYLOAD - 60));
  const seedRange = db.sql.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const status = statuses[i % statuses.length]!;
      const at = sqlDate(start + Math.floor((i / N) * 30 * 86_400_000));
      const payload = JSON.stringify({ order: i, customer: i % 500 === 0 ? "ACME Corp" : `c${i}`, filler });
      const error =
        status === "failed"
          ? i % 40 === 3
            ? "timeout talking to payments"
            : "HTTP 502 from upstream"
          : null;
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
  });
  for (let i = 0; i < N; i += 50_000) {
    seedRange(i, Math.min(N, i + 50_000));
    process.stderr.write(`\rseeded ${Math.min(N, i + 50_000).toLocaleString()} runs`);
  }
  process.stderr.write("\n");
  seedMs = performance.now() - t0;
  const t1 = performance.now();
  applyMigrations(db.sql);
  upgradeMs = performance.now() - t1;
  db.sql.pragma("wal_checkpoint(TRUNCATE)");
}
const flowIds = db.sql.prepare(`SELECT id FROM "Flow" ORDER BY name`).pluck().all() as string[];
const repo = createRunRepo(db.prisma, db.sql);

interface Figure {
  name: string;
  p50: number;
  p95: number;
  rows: number;
}
const figures: Figure[] = [];

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
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  figures.push({ name, p50: p(0.5), p95: p(0.95), rows });
  console.log(
    `${name.padEnd(56)} p50 ${p(0.5).toFixed(1).padStart(7)} ms   p95 ${p(0.95).toFixed(1).padStart(7)} ms   rows ${rows}`,
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
const from = new Date(start + 10 * 86_400_000 + 1_234_567).toISOString();
const to = new Date(start + 12 * 86_400_000 + 2_345_678).toISOString();
const flow = flowIds[3]!;
const fileMb = (statSync(db.file).size / 1e6).toFixed(0);

console.log(
  `runs-list: ${N.toLocaleString()} runs, ${PAYLOAD} B payloads, seeded in ${(seedMs / 1000).toFixed(1)} s, upgraded (this version's migration) in ${(upgradeMs / 1000).toFixed(1)} s, file ${fileMb} MB; ${REPEAT} repeats each; load ${loadavg()[0]!.toFixed(1)}`,
);
await measure("newest first, first page", list({}));
await measure("newest first, page 51 (cursor)", list({ cursor: deepCursor }));
await measure("oldest first", list({ sort: "oldest" }));
await measure("longest first (duration)", list({ sort: "duration" }));
await measure("one flow, longest first", list({ flowId: flow, sort: "duration" }));
await measure("status succeeded, longest first", list({ status: "succeeded", sort: "duration" }));
await measure(
  "channel email + status failed, longest first",
  list({ channel: "email", status: "failed", sort: "duration" }),
);
await measure("one flow", list({ flowId: flow }));
await measure("status failed", list({ status: "failed" }));
await measure("channel email (the REST API's slow case)", list({ channel: "email" }));
await measure(
  "status running+queued, channel webhook",
  list({ status: ["running", "queued"], channel: "webhook" }),
);
await measure("one flow + status succeeded (no such run)", list({ flowId: flow, status: "succeeded" }));
await measure(
  "one flow + channel cron + status failed",
  list({ flowId: flow, channel: "cron", status: "failed" }),
);
await measure(
  "all seven statuses + three channels",
  list({
    status: ["queued", "running", "waiting", "succeeded", "failed", "cancelled", "timed_out"],
    channel: ["webhook", "email", "cron"],
  }),
);
await measure("time range (2 days)", list({ from, to }));
await measure("one flow + time range", list({ flowId: flow, from, to }));
await measure(
  "status failed + channel webhook + time range, oldest",
  list({ status: "failed", channel: "webhook", from, to, sort: "oldest" }),
);
await measure("search in payloads (rare, 1 in 500: 'ACME')", list({ search: "ACME" }));
await measure("search in errors (1 in 40: 'payments')", list({ search: "payments" }));
await measure("search, common ('upstream', 1 in 9 runs)", list({ search: "upstream" }));
await measure("search, no match", list({ search: "no-such-text" }));
await measure(
  "search + one flow + status failed",
  list({ search: "payments", flowId: flow, status: "failed" }),
);
await measure("search + status cancelled (no match)", list({ search: "upstream", status: "cancelled" }));
await measure("search, oldest first, page 2", async () => {
  const first = await repo.list({ limit: 50, search: "upstream", sort: "oldest" });
  return repo.list({ limit: 50, search: "upstream", sort: "oldest", cursor: first.nextCursor! });
});
await measure("search, longest first", list({ search: "payments", sort: "duration" }));
await measure("status counts, all runs", () => repo.counts({}));
await measure("status counts, one flow", () => repo.counts({ flowId: flow }));
await measure("status counts, channel email", () => repo.counts({ channel: "email" }));
await measure("status counts, time range (2 days, not hour-aligned)", () => repo.counts({ from, to }));
await measure("status counts, one flow + channel + time range", () =>
  repo.counts({ flowId: flow, channel: ["cron", "email"], from, to }),
);
await measure("status counts, search (rare)", () => repo.counts({ search: "ACME" }));
await measure("status counts, search (common, capped at 10 000)", () => repo.counts({ search: "upstream" }));

// Retention deletes go through the same triggers: time them, and check search forgets what they removed.
const pruneCount = Math.min(10_000, Math.floor(N / 10));
// Inside a transaction that is rolled back, so a kept database (--db) stays as seeded.
db.sql.exec("BEGIN");
const tp = performance.now();
const doomed = db.sql
  .prepare(`SELECT id FROM "Run" ORDER BY createdAt LIMIT ?`)
  .pluck()
  .all(pruneCount) as string[];
const del = db.sql.prepare(`DELETE FROM "Run" WHERE id = ?`);
for (const id of doomed) del.run(id);
const pruneMs = performance.now() - tp;
const acmeLeft = (await repo.counts({ search: "ACME" })).total;
db.sql.exec("ROLLBACK");
const acmeExpected = Math.floor((N - 1) / 500) + 1 - Math.ceil(pruneCount / 500);
console.log(
  `deleted the oldest ${pruneCount.toLocaleString()} runs in ${pruneMs.toFixed(0)} ms (${((pruneMs * 1000) / pruneCount).toFixed(0)} µs per run, counts and index included); search 'ACME' then found ${acmeLeft} (expected ${acmeExpected})`,
);

const worst = figures.reduce((a, b) => (b.p95 > a.p95 ? b : a));
const over = figures.filter((f) => f.p95 >= BUDGET_MS);
console.log(
  over.length === 0
    ? `every query under ${BUDGET_MS} ms at p95 (worst: ${worst.name}, ${worst.p95.toFixed(1)} ms)`
    : `OVER ${BUDGET_MS} ms at p95: ${over.map((f) => f.name).join("; ")}`,
);

if (write) {
  const doc = "docs/benchmarks.md";
  const text = readFileSync(doc, "utf8");
  const [begin, end] = ["<!-- runs-list:start -->", "<!-- runs-list:end -->"];
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${doc} has no ${begin} … ${end} section to write into`);
  const table = [
    `${N.toLocaleString("en")} runs, ${PAYLOAD} B payloads, 20 flows over 30 days; file ${fileMb} MB; seeded in ${(seedMs / 1000).toFixed(0)} s as a database of the previous version, upgraded by this version's migration in ${(upgradeMs / 1000).toFixed(0)} s;`,
    `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load average ${loadavg()[0]!.toFixed(1)} at the end; ${REPEAT} repeats each.`,
    "",
    "| query | p50 ms | p95 ms | rows |",
    "| --- | ---: | ---: | ---: |",
    ...figures.map((f) => `| ${f.name} | ${f.p50.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.rows} |`),
    "",
    `Deleting the oldest ${pruneCount.toLocaleString("en")} runs (counts and search index kept by the same triggers): ${pruneMs.toFixed(0)} ms, ${((pruneMs * 1000) / pruneCount).toFixed(0)} µs per run; a search afterwards found ${acmeLeft} of the expected ${acmeExpected}.`,
  ].join("\n");
  writeFileSync(doc, `${text.slice(0, a + begin.length)}\n${table}\n${text.slice(b)}`);
  console.log(`wrote the figures into ${doc}`);
}

await db.close();
if (!keepFile) rmSync(dir, { recursive: true, force: true });
