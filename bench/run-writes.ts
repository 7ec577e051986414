// What the run-list indexes, counters and search triggers cost each write of a run: the same SQL the run
// queue and step store execute, on a database with only the first migration ("before") and with all of
// them ("after"), interleaved round by round. CPU time of this process per run, so other load on the
// machine slows it less than wall time would.
// Run from the repo root: npx tsx bench/run-writes.ts [runsPerRound] [rounds]
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  applyMigrations,
  defaultMigrationsDir,
  newId,
  createRunSearchIndexer,
  openRawDatabase,
  readMigrations,
  sqlDate,
} from "../packages/db/src/index";

const PER_ROUND = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const BATCH = 32; // admissions group-committed per transaction, as under load
// The search indexer's batch: at ~3 000 runs/s the host's 200 ms timer finds ~600 runs waiting.
const INDEX_EVERY = 640;

const dir = mkdtempSync(join(tmpdir(), "sy-bench-writes-"));
const first = readMigrations()[0]!.name;
const beforeDir = join(dir, "migrations-before");
cpSync(join(defaultMigrationsDir, first), join(beforeDir, first), { recursive: true });

function open(name: string, migrations?: string) {
  const db = openRawDatabase(join(dir, `${name}.db`));
  applyMigrations(db, migrations ? { dir: migrations } : {});
  db.prepare(`INSERT INTO "Flow" (id, name, updatedAt) VALUES ('f', 'F', ?)`).run(sqlDate());
  return db;
}

const variants = { before: open("before", beforeDir), after: open("after") };
// The previous version's connection kept temp files on disk (SQLite's default); this one keeps them in memory.
variants.before.pragma("temp_store = DEFAULT");
const payload = JSON.stringify({ order: 1234, customer: "ACME Corp", items: [{ sku: "A-1", qty: 2 }] });

function writer(db: ReturnType<typeof openRawDatabase>) {
  // Inline run: inserted finished with its three steps (the W2 webhook path).
  const insertCompleted = db.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, createdAt, startedAt, endedAt, durationMs, output)
     VALUES (?, 'f', 1, 'succeeded', 'webhook', ?, ?, 1, ?, ?, ?, 3, '{"ok":true}')`,
  );
  const insertStep = db.prepare(
    `INSERT INTO "Step" (id, runId, stepId, nodeId, status, port, input, output, startedAt, endedAt, durationMs)
     VALUES (?, ?, ?, ?, 'succeeded', 'main', '[]', '[{"json":{"ok":true}}]', ?, ?, 1)`,
  );
  // Queued run: admitted, claimed, finished (three writes of the Run row).
  const insertQueued = db.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, createdAt)
     VALUES (?, 'f', 1, 'queued', 'webhook', ?, ?, 0, ?)`,
  );
  const claim = db.prepare(`UPDATE "Run" SET status = 'running', startedAt = ?, attempts = 1 WHERE id = ?`);
  const finish = db.prepare(
    `UPDATE "Run" SET status = 'succeeded', endedAt = ?, durationMs = 3, output = '{"ok":true}' WHERE id = ?`,
  );
  const inline = db.transaction((n: number) => {
    const at = sqlDate();
    for (let i = 0; i < n; i++) {
      const id = newId();
      insertCompleted.run(id, payload, at, at, at, at);
      for (const node of ["hook", "set", "respond"]) insertStep.run(newId(), id, `${node}#1`, node, at, at);
    }
  });
  const queued = db.transaction((ids: string[]) => {
    const at = sqlDate();
    for (const id of ids) insertQueued.run(id, payload, at, at);
  });
  const claimAll = db.transaction((ids: string[]) => {
    for (const id of ids) claim.run(sqlDate(), id);
  });
  const finishAll = db.transaction((ids: string[]) => {
    for (const id of ids) finish.run(sqlDate(), id);
  });
  // Versions that index search documents in batches pay for it here, as the host's timer does.
  const hasIndexer = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'RunSearchMark'`).get();
  const indexer = hasIndexer ? createRunSearchIndexer(db) : undefined;
  const index = (i: number) => {
    if (indexer && (i + BATCH) % INDEX_EVERY === 0) indexer.catchUp();
  };
  return {
    inline: () => {
      for (let i = 0; i < PER_ROUND; i += BATCH) {
        inline(BATCH);
        index(i);
      }
      indexer?.catchUp();
    },
    queued: () => {
      for (let i = 0; i < PER_ROUND; i += BATCH) {
        const ids = Array.from({ length: BATCH }, () => newId());
        queued(ids);
        claimAll(ids);
        finishAll(ids);
        index(i);
      }
      indexer?.catchUp();
    },
  };
}

const writers = { before: writer(variants.before), after: writer(variants.after) };
const results: Record<string, number[]> = {};
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
for (let r = 0; r < ROUNDS; r++)
  for (const path of ["inline", "queued"] as const)
    for (const v of ["before", "after"] as const) {
      const c0 = cpuUs();
      writers[v][path]();
      const key = `${path} ${v}`;
      results[key] = [...(results[key] ?? []), (cpuUs() - c0) / PER_ROUND];
    }

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `run-writes: ${PER_ROUND.toLocaleString()} runs per round, ${ROUNDS} rounds, batches of ${BATCH}; load ${loadavg()[0]!.toFixed(1)}`,
);
for (const path of ["inline", "queued"] as const) {
  const b = median(results[`${path} before`]!);
  const a = median(results[`${path} after`]!);
  console.log(
    `${path.padEnd(7)} CPU µs per run: before ${b.toFixed(1).padStart(6)}   after ${a.toFixed(1).padStart(6)}   +${(a - b).toFixed(1)} µs (${(((a - b) / b) * 100).toFixed(0)} %)`,
  );
}
variants.before.close();
variants.after.close();
rmSync(dir, { recursive: true, force: true });
