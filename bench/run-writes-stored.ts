// What a database holding many runs adds to writing one: c=1-style transactions (one finished W2 run with its
// three steps each, the inline webhook path's SQL) on databases prefilled with each STORED count, for each SQLite
// page cache size, all alternating round by round in one process (this machine's speed drifts by a third within
// minutes, so only interleaved figures compare); then the run list and search documents for them (the host's
// indexer). Prints median CPU and wall µs per run. Prefilled files are kept in bench/.cache/run-writes/ and reused.
// Run from the repo root: npx tsx bench/run-writes-stored.ts [stored=0,1000000] [runs per round=5000] [rounds=5]
// [cache sizes=-2000,-16000]
import { existsSync, mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import {
  applyMigrations,
  createRunSearchIndexer,
  newId,
  openRawDatabase,
  sqlDate,
} from "../packages/db/src/index";
import { prefillRuns } from "./prefill-runs";

const STORED = (process.argv[2] ?? "0,1000000").split(",").map(Number);
const PER = Number(process.argv[3] ?? 5000);
const ROUNDS = Number(process.argv[4] ?? 5);
const CACHES = (process.argv[5] ?? "-2000,-16000").split(",").map(Number);
const dir = join(import.meta.dirname, ".cache", "run-writes");
mkdirSync(dir, { recursive: true });

function prefill(db: Database.Database, n: number) {
  applyMigrations(db, {});
  db.prepare(`INSERT INTO "Flow" (id, name, updatedAt) VALUES ('f', 'F', ?)`).run(sqlDate());
  prefillRuns(db, "f", n, sqlDate);
  createRunSearchIndexer(db).catchUp();
  db.pragma("wal_checkpoint(TRUNCATE)");
}

function target(stored: number) {
  const file = join(dir, `stored-${stored}.db`);
  const fresh = !existsSync(file);
  const db = openRawDatabase(file);
  if (fresh) {
    prefill(db, stored);
    console.log(`prefilled ${stored.toLocaleString()} runs into ${file}`);
  }
  const payload = JSON.stringify({ body: { n: 1 }, headers: { "content-type": "application/json" } });
  const insertCompleted = db.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, createdAt, startedAt, endedAt, durationMs, output) VALUES (?, 'f', 1, 'succeeded', 'webhook', ?, ?, 1, ?, ?, ?, 3, '{"ok":true}')`,
  );
  const insertStep = db.prepare(
    `INSERT INTO "Step" (id, runId, stepId, nodeId, status, port, input, output, startedAt, endedAt, durationMs) VALUES (?, ?, ?, ?, 'succeeded', 'main', '[]', '[{"json":{"ok":true}}]', ?, ?, 1)`,
  );
  const one = db.transaction(() => {
    const at = sqlDate();
    const id = newId();
    insertCompleted.run(id, payload, at, at, at, at);
    for (const node of ["hook", "set", "respond"]) insertStep.run(newId(), id, `${node}#1`, node, at, at);
  });
  return { db, one, indexer: createRunSearchIndexer(db) };
}

const targets = STORED.map((stored) => ({ stored, ...target(stored) }));
const results = new Map<string, { cpu: number[]; wall: number[]; index: number[] }>();
for (let r = 0; r < ROUNDS; r++)
  for (const t of targets)
    for (const cache of CACHES) {
      t.db.pragma(`cache_size = ${cache}`);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < PER; i++) t.one();
      const c = process.cpuUsage(c0);
      const t1 = performance.now();
      t.indexer.catchUp();
      const key = `${t.stored}|${cache}`;
      const rec = results.get(key) ?? { cpu: [], wall: [], index: [] };
      rec.cpu.push((c.user + c.system) / PER);
      rec.wall.push(((t1 - t0) * 1000) / PER);
      rec.index.push(((performance.now() - t1) * 1000) / PER);
      results.set(key, rec);
    }

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(1);
console.log(
  `run-writes-stored: ${PER.toLocaleString()} runs per round, ${ROUNDS} rounds, one run per transaction; load ${loadavg()[0]!.toFixed(1)}`,
);
for (const [key, rec] of results) {
  const [stored, cache] = key.split("|");
  console.log(
    `${Number(stored).toLocaleString().padStart(9)} stored, cache_size ${cache!.padStart(6)}: CPU µs per run ${median(rec.cpu).padStart(6)} (rounds ${rec.cpu.map((x) => x.toFixed(0)).join(" ")}), wall ${median(rec.wall).padStart(6)}, indexing wall ${median(rec.index).padStart(5)}`,
  );
}
for (const t of targets) t.db.close();
