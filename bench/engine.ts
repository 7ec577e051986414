/**
 * Engine + persistence + queue figures (issue "Graph runtime"):
 *  1. steps/second for a 100-node linear flow, in memory and with SQLite step checkpoints;
 *  2. p50/p99 per-step cost across runs (run wall time / steps; the nodes are no-ops, so this is the
 *     executor's own overhead: state machine, config handling, checkpoint);
 *  3. runs/second for a 3-node flow admitted through the durable queue and run by the worker.
 *
 *   npx tsx bench/engine.ts [runs=100] [queueRuns=2000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyMigrations, openRawDatabase } from "../packages/db/src/index";
import {
  compileGraph,
  FlowDefinition,
  InMemoryStepStore,
  type NodeContext,
  runFlow,
  type StepStore,
} from "../packages/engine/src/index";
import { registry } from "../packages/nodes/src/index";
import { createSqliteStepStore } from "../packages/runtime/src/runs/sqlite-step-store";
import { createHost, createLogger, parseConfig } from "../packages/runtime/src/index";

const RUNS = Number(process.argv[2] ?? 100);
const QUEUE_RUNS = Number(process.argv[3] ?? 2000);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

function linearFlow(n: number) {
  const nodes: Record<string, unknown>[] = [{ id: "t", type: "trigger.manual" }];
  const edges: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    nodes.push({ id: `n${i}`, type: "flow.noop" });
    edges.push({
      from: { node: i === 0 ? "t" : `n${i - 1}`, port: "main" },
      to: { node: `n${i}`, port: "main" },
    });
  }
  return FlowDefinition.parse({ nodes, edges, settings: { maxRunMs: 600_000 } });
}

async function stepsPerSecond(label: string, key: string, store: () => StepStore) {
  const flow = linearFlow(100);
  const graph = compileGraph(flow, registry);
  const perStep: number[] = [];
  let steps = 0;
  const started = performance.now();
  for (let r = 0; r < RUNS; r++) {
    const runStart = performance.now();
    const before = steps;
    await runFlow({
      flow,
      graph,
      registry,
      validate: false,
      stepStore: store(),
      run: { id: `${key}-${r}`, flowId: "bench", startedAt: new Date().toISOString(), channel: "manual" },
      trigger: { n: r },
      onEvent: (e) => {
        if (e.type === "step.finished") steps++;
      },
      ctxFactory: (base) => base as NodeContext,
    });
    perStep.push((performance.now() - runStart) / (steps - before));
  }
  const secs = (performance.now() - started) / 1000;
  console.log(
    `${label.padEnd(28)} ${(steps / secs).toFixed(0).padStart(8)} steps/s   per-step cost p50 ${(pct(perStep, 50) * 1000).toFixed(0)} µs  p99 ${(pct(perStep, 99) * 1000).toFixed(0)} µs`,
  );
}

async function queueThroughput() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "sy-bench-"));
  const host = await createHost(
    parseConfig({ SWITCHYARD_DATA_DIR: dir, SWITCHYARD_SMTP_PORT: "0" }),
    createLogger("silent"),
    { seed: false },
  );
  await host.start();
  const { id } = await host.flows.create({
    name: "3 nodes",
    definition: {
      nodes: [
        { id: "t", type: "trigger.manual" },
        { id: "a", type: "flow.noop" },
        { id: "b", type: "flow.noop" },
      ],
      edges: [
        { from: { node: "t", port: "main" }, to: { node: "a", port: "main" } },
        { from: { node: "a", port: "main" }, to: { node: "b", port: "main" } },
      ],
    },
  });
  const started = performance.now();
  let done = 0;
  const finished = new Promise<void>((resolve) =>
    host.services.events.on("run.finished", () => {
      if (++done === QUEUE_RUNS) resolve();
    }),
  );
  await Promise.all(
    Array.from({ length: QUEUE_RUNS }, (_, i) => host.control.startRun(id, { payload: { i } })),
  );
  const admitted = performance.now();
  await finished;
  const secs = (performance.now() - started) / 1000;
  const ok = (
    host.db.sql.prepare(`SELECT COUNT(*) n FROM "Run" WHERE status = 'succeeded'`).get() as { n: number }
  ).n;
  const stepRows = (host.db.sql.prepare(`SELECT COUNT(*) n FROM "Step"`).get() as { n: number }).n;
  console.log(
    `queue: ${QUEUE_RUNS} runs of a 3-node flow   ${(QUEUE_RUNS / secs).toFixed(0)} runs/s end to end   admission ${(((admitted - started) / QUEUE_RUNS) * 1000).toFixed(0)} µs/run   succeeded ${ok}, step rows ${stepRows}`,
  );
  await host.close();
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`,
);
await stepsPerSecond("100-node linear, in memory", "memory", () => new InMemoryStepStore());
const dir = mkdtempSync(path.join(os.tmpdir(), "sy-bench-steps-"));
const db = openRawDatabase(path.join(dir, "steps.db"));
applyMigrations(db);
db.prepare(`INSERT INTO "Flow" (id, name, updatedAt) VALUES ('bench', 'bench', '2026-01-01')`).run();
const insertRun = db.prepare(
  `INSERT INTO "Run" (id, flowId, flowVersion, channel, triggerPayload) VALUES (?, 'bench', 1, 'manual', '{}')`,
);
for (let r = 0; r < RUNS; r++) insertRun.run(`persisted-${r}`);
await stepsPerSecond("100-node linear, persisted", "persisted", () => createSqliteStepStore(db));
db.close();
rmSync(dir, { recursive: true, force: true });
await queueThroughput();
console.log(`peak RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
