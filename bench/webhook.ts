/**
 * Webhook hot path: Switchyard as `npm start` runs it (web app loaded) and as `switchyard worker` runs it,
 * against a raw node:http server, the durable floor (raw node:http that also commits the run and its step
 * rows before answering: what durability alone costs) and, with --node-red, Node-RED — all in one run,
 * interleaved round by round.
 *
 *   npx tsx bench/webhook.ts [--node-red] [--baseline REF] [--stored N[,N…]] [--cases W2,W1]
 *                            [--seconds 15] [--rounds 3] [--warmup 5] [--no-worker]
 *   npx tsx bench/webhook.ts --queue [--seconds 10] [--rounds 1]   (scale-out: see bench/webhook-queue.ts)
 *
 * --baseline REF also runs `switchyard start` as of git REF (e.g. the commit before a change), on a data dir
 * its own code created. --stored N writes N finished W2 runs (with steps) into every Switchyard data dir
 * first: the hot path of a long-lived install. Several figures (--stored 0,1000000) start one `switchyard
 * start` per figure, interleaved like every other target (the worker and the baseline get the first).
 * Retention is off, so every run made is kept and checked.
 *
 * W2: webhook (sync) → data.set {ok: true, n: n + 1} → webhook.respond.  W1: webhook → respond.
 * Every 2xx a Switchyard target answered must have a persisted, succeeded run with its steps (checked at the
 * end). Peak RSS is the whole process tree's.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { openRawDatabase } from "../packages/db/src/index";
import {
  baselineCheckout,
  root,
  rssMb,
  seedDataDir,
  startDurableFloor,
  startNodeRed,
  startRaw,
  startSwitchyard,
  type Target,
} from "./webhook-targets";

const { values } = parseArgs({
  options: {
    "node-red": { type: "boolean", default: false },
    baseline: { type: "string" },
    stored: { type: "string", default: "0" },
    cases: { type: "string", default: "W2,W1" },
    seconds: { type: "string", default: "15" },
    rounds: { type: "string", default: "3" },
    warmup: { type: "string", default: "5" },
    "no-worker": { type: "boolean", default: false },
    queue: { type: "boolean", default: false },
  },
});
if (values.queue) {
  // Scale-out figures (PostgreSQL + Redis): bench/webhook-queue.ts.
  const { benchQueue } = await import("./webhook-queue");
  await benchQueue({ seconds: Number(values.seconds), rounds: Number(values.rounds) });
  process.exit();
}
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const WARMUP = Number(values.warmup);
// One `switchyard start` target per figure: `--stored 0,300000,1000000` measures the slope in one run.
const STORED = values.stored.split(",").map(Number);
const startName = (n: number) =>
  STORED.length === 1 ? "Switchyard" : `Switchyard, ${n.toLocaleString()} stored`;
const CASES = values.cases.split(",");

interface Sample {
  rps: number;
  p50: number;
  p975: number;
  p99: number;
  errors: number;
  non2xx: number;
  ok: number;
  rss: number;
}

async function drive(t: Target, pathName: string, connections: number, seconds: number): Promise<Sample> {
  let peak = rssMb(t.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(t.pid))), 250);
  const r = await autocannon({
    url: `${t.url}${pathName}`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ n: 41 }),
    connections,
    duration: seconds,
  });
  clearInterval(sampler);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p975: r.latency.p97_5,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    ok: r["2xx"],
    rss: peak,
  };
}

const work = mkdtempSync(path.join(os.tmpdir(), "sy-webhook-bench-"));
const dirs = {
  start: path.join(work, "start"),
  worker: path.join(work, "worker"),
  floor: path.join(work, "floor"),
};
const startDir = (n: number) => (STORED.length === 1 ? dirs.start : `${dirs.start}-${n}`);
const ids = seedDataDir(root, startDir(STORED[0]!), STORED[0]!);
for (const n of STORED.slice(1)) seedDataDir(root, startDir(n), n);
if (!values["no-worker"]) cpSync(startDir(STORED[0]!), dirs.worker, { recursive: true });
// The floor writes into a copy of Switchyard's schema (same indexes, foreign keys and triggers), flow included.
seedDataDir(root, dirs.floor, 0);

const baseline = values.baseline ? baselineCheckout(values.baseline) : undefined;
const baselineDir = path.join(work, "baseline");
if (baseline) seedDataDir(baseline.dir, baselineDir, STORED[0]!);

interface Entry {
  t: Target;
  paths: Record<string, string>;
  /** Switchyard targets: the data dir whose runs are checked at the end, and how many it held before. */
  dataDir?: string;
  stored?: number;
  ok: number;
}
const hooks = { W2: "/hooks/w2", W1: "/hooks/w1" };
const targets: Entry[] = [];
// A target that cannot start (an unbuilt web app, say) must not leave the ones started before it running.
try {
  targets.push({ t: await startRaw(), paths: { W2: "/", W1: "/" }, ok: 0 });
  targets.push({
    t: await startDurableFloor(path.join(dirs.floor, "switchyard.db"), floorFlowId()),
    paths: { W2: "/", W1: "/" },
    ok: 0,
  });
  for (const n of STORED)
    targets.push({
      t: await startSwitchyard(startDir(n), { name: startName(n) }),
      paths: hooks,
      dataDir: startDir(n),
      stored: n,
      ok: 0,
    });
  if (!values["no-worker"])
    targets.push({
      t: await startSwitchyard(dirs.worker, { role: "worker" }),
      paths: hooks,
      dataDir: dirs.worker,
      stored: STORED[0],
      ok: 0,
    });
  if (baseline)
    targets.push({
      t: await startSwitchyard(baselineDir, { checkout: baseline.dir, name: `Switchyard @${baseline.sha}` }),
      paths: hooks,
      dataDir: baselineDir,
      stored: STORED[0],
      ok: 0,
    });
  if (values["node-red"])
    targets.push({ t: await startNodeRed(work), paths: { W2: "/w2", W1: "/w1" }, ok: 0 });
} catch (err) {
  for (const { t } of targets) await t.stop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
  throw err;
}

function floorFlowId(): string {
  const db = openRawDatabase(path.join(dirs.floor, "switchyard.db"));
  const id = db.prepare(`SELECT id FROM "Flow" WHERE name = 'W2'`).pluck().get() as string;
  db.close();
  return id;
}

console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${os.loadavg()[0]!.toFixed(2)}`,
);
console.log(
  `autocannon: ${ROUNDS} rounds × ${SECONDS} s per target and case, ${WARMUP} s warm-up, targets interleaved; ${STORED.map((n) => n.toLocaleString()).join(" / ")} runs stored before the first request; flow ids ${JSON.stringify(ids)}\n`,
);

const results = new Map<string, Sample[]>();
for (const e of targets) e.ok += (await drive(e.t, e.paths.W2!, 20, WARMUP)).ok;
for (const flow of CASES) {
  for (const c of [20, 1]) {
    for (let round = 0; round < ROUNDS; round++) {
      for (const e of targets) {
        const s = await drive(e.t, e.paths[flow]!, c, SECONDS);
        e.ok += s.ok;
        const key = `${flow} c=${c}|${e.t.name}`;
        results.set(key, [...(results.get(key) ?? []), s]);
      }
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];
rows.push("| case | target | req/s (rounds) | median req/s | p50 ms | p99 ms | errors | peak RSS MB |");
rows.push("|---|---|---|---:|---:|---:|---:|---:|");
for (const [key, samples] of results) {
  const [flowCase, name] = key.split("|");
  rows.push(
    `| ${flowCase} | ${name} | ${samples.map((s) => s.rps.toFixed(0)).join(" / ")} | ${median(samples.map((s) => s.rps)).toFixed(0)} | ${median(samples.map((s) => s.p50))} | ${median(samples.map((s) => s.p99))} | ${samples.reduce((a, s) => a + s.errors + s.non2xx, 0)} | ${Math.max(...samples.map((s) => s.rss)).toFixed(0)} |`,
  );
}
console.log(rows.join("\n"));
const rps = (flowCase: string, name: string) =>
  median((results.get(`${flowCase}|${name}`) ?? []).map((s) => s.rps));
const nodeRed = targets.find((x) => x.t.name.startsWith("Node-RED"))?.t.name;
console.log("");
for (const flow of CASES)
  for (const c of [20, 1])
    for (const e of targets.filter((x) => x.dataDir)) {
      const k = `${flow} c=${c}`;
      const sy = rps(k, e.t.name);
      const parts = [
        nodeRed ? `${(sy / rps(k, nodeRed)).toFixed(2)}× Node-RED` : "",
        `${(sy / rps(k, "durable floor")).toFixed(2)}× durable floor`,
        `${(sy / rps(k, "raw node:http")).toFixed(2)}× raw`,
        baseline && e.t.name === "Switchyard"
          ? `${(sy / rps(k, `Switchyard @${baseline.sha}`)).toFixed(3)}× @${baseline.sha}`
          : "",
      ].filter(Boolean);
      console.log(`${k} ${e.t.name}: ${parts.join(", ")}`);
    }

for (const { t } of targets) await t.stop();
console.log("");
let persisted = true;
for (const e of targets.filter((x) => x.dataDir)) {
  const db = openRawDatabase(path.join(e.dataDir!, "switchyard.db"));
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const runs = count(`SELECT COUNT(*) n FROM "Run" WHERE status = 'succeeded'`) - e.stored!;
  const unfinished = count(
    `SELECT COUNT(*) n FROM "Run" WHERE status NOT IN ('succeeded','failed','cancelled','timed_out')`,
  );
  const stepless = count(
    `SELECT COUNT(*) n FROM "Run" r WHERE NOT EXISTS (SELECT 1 FROM "Step" s WHERE s.runId = r.id)`,
  );
  db.close();
  const ok = runs >= e.ok && unfinished === 0 && stepless === 0;
  persisted &&= ok;
  console.log(
    `persistence, ${e.t.name}: ${e.ok} answered 2xx → ${runs} new succeeded runs, ${unfinished} unfinished, ${stepless} runs without steps ${ok ? "✓" : "✗"}`,
  );
}

// Issue #25's targets, W2, for each `switchyard start` target (medians of rounds; peak RSS of the process tree
// over every sample).
const k20 = "W2 c=20";
for (const n of STORED) {
  const name = startName(n);
  const w2 = results.get(`${k20}|${name}`) ?? [];
  if (!w2.length) continue;
  const sy = rps(k20, name);
  const vsNodeRed = nodeRed ? sy / rps(k20, nodeRed) : undefined;
  const vsNodeRed1 = nodeRed ? rps("W2 c=1", name) / rps("W2 c=1", nodeRed) : undefined;
  const vsFloor = sy / rps(k20, "durable floor");
  const p99 = median(w2.map((s) => s.p99));
  const peak = Math.max(
    ...[...results].filter(([k]) => k.endsWith(`|${name}`)).flatMap(([, s]) => s.map((x) => x.rss)),
  );
  const verdicts: [string, boolean | undefined, string][] = [
    [
      "W2 c=20 ≥ 1.2× Node-RED",
      vsNodeRed && vsNodeRed >= 1.2,
      vsNodeRed?.toFixed(2) ?? "run with --node-red",
    ],
    ["W2 c=20 ≥ 0.5× durable floor", vsFloor >= 0.5, vsFloor.toFixed(2)],
    ["W2 c=20 p99 ≤ 20 ms", p99 <= 20, `${p99} ms`],
    ["peak RSS of the process tree ≤ 200 MB", peak <= 200, `${peak.toFixed(0)} MB`],
    [
      "W2 c=1 ≥ 0.8× Node-RED",
      vsNodeRed1 && vsNodeRed1 >= 0.8,
      vsNodeRed1?.toFixed(2) ?? "run with --node-red",
    ],
    ["every acknowledged request persisted with its steps", persisted, persisted ? "yes" : "no"],
  ];
  console.log(`\n#25 targets, \`switchyard start\` (npm start), ${n.toLocaleString()} runs stored:`);
  for (const [what, ok, value] of verdicts)
    console.log(
      `  ${nodeRed === undefined && what.includes("Node-RED") ? "?" : ok ? "✓" : "✗"} ${what}: ${value}`,
    );
}
rmSync(work, { recursive: true, force: true });
if (!persisted) process.exitCode = 1;
