/**
 * Webhook hot path: Switchyard vs a raw node:http server, the durable floor (raw node:http that also
 * commits the run and its step rows before answering: what durability alone costs), and Node-RED with
 * --node-red.
 *
 *   npx tsx bench/webhook.ts [--node-red] [--baseline REF] [--seconds 20] [--rounds 3] [--warmup 5]
 *   npx tsx bench/webhook.ts --queue [--seconds 10] [--rounds 1]   (scale-out: see bench/webhook-queue.ts)
 *
 * --baseline REF also runs Switchyard as of git REF (e.g. the commit before a change), interleaved with the rest.
 *
 * W2: webhook (sync) → data.set {ok: true, n: n + 1} → webhook.respond.  W1: webhook → respond.
 * Targets are interleaved round by round; every 2xx Switchyard answered must have a persisted run with its
 * steps afterwards (checked at the end).
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { openRawDatabase } from "../packages/db/src/index";
import { createHost, createLogger, parseConfig } from "../packages/runtime/src/index";
import {
  baselineCheckout,
  rssMb,
  startDurableFloor,
  startNodeRed,
  startRaw,
  startSwitchyard,
  type Target,
  w1,
  w2,
} from "./webhook-targets";

const { values } = parseArgs({
  options: {
    "node-red": { type: "boolean", default: false },
    baseline: { type: "string" },
    seconds: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
    warmup: { type: "string", default: "5" },
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

let floorFlowId = "";
const work = mkdtempSync(path.join(os.tmpdir(), "sy-webhook-bench-"));
const dataDir = path.join(work, "switchyard");
const floorDb = path.join(work, "floor", "floor.db");
{
  // The floor writes into a copy of Switchyard's schema (same indexes and foreign keys), flow included.
  const floor = await createHost(
    parseConfig({ SWITCHYARD_DATA_DIR: path.dirname(floorDb), SWITCHYARD_SMTP_PORT: "0" }),
    createLogger("silent"),
    { seed: false },
  );
  const { id } = await floor.flows.create({ name: "W2", definition: w2 });
  await floor.close();
  floorFlowId = id;
}
{
  const host = await createHost(
    parseConfig({ SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_SMTP_PORT: "0" }),
    createLogger("silent"),
    { seed: false },
  );
  for (const [name, def] of [
    ["W2", w2],
    ["W1", w1],
  ] as const) {
    const { id } = await host.flows.create({ name, definition: def });
    await host.control.setActive(id, true);
  }
  await host.close();
}

const baseline = values.baseline ? baselineCheckout(values.baseline) : undefined;
// The baseline serves its own copy of the same flows (the data dir is copied before any target starts).
const baselineDir = path.join(work, "baseline");
if (baseline) cpSync(dataDir, baselineDir, { recursive: true });

const targets: { t: Target; paths: Record<string, string> }[] = [];
targets.push({ t: await startRaw(), paths: { W2: "/", W1: "/" } });
targets.push({
  t: await startDurableFloor(path.join(path.dirname(floorDb), "switchyard.db"), floorFlowId),
  paths: { W2: "/", W1: "/" },
});
targets.push({ t: await startSwitchyard(dataDir), paths: { W2: "/hooks/w2", W1: "/hooks/w1" } });
if (baseline)
  targets.push({
    t: await startSwitchyard(baselineDir, [], baseline.dir, `Switchyard @${baseline.sha}`),
    paths: { W2: "/hooks/w2", W1: "/hooks/w1" },
  });
if (values["node-red"]) targets.push({ t: await startNodeRed(work), paths: { W2: "/w2", W1: "/w1" } });

console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${os.loadavg()[0]!.toFixed(2)}`,
);
console.log(
  `autocannon: ${ROUNDS} rounds × ${SECONDS} s per target and case, ${WARMUP} s warm-up, targets interleaved\n`,
);

const results = new Map<string, Sample[]>();
let switchyardOk = 0;
for (const t of targets) await drive(t.t, t.paths.W2!, 20, WARMUP);
for (const flow of ["W2", "W1"]) {
  for (const c of [20, 1]) {
    for (let round = 0; round < ROUNDS; round++) {
      for (const { t, paths } of targets) {
        const s = await drive(t, paths[flow]!, c, SECONDS);
        if (t.name === "Switchyard") switchyardOk += s.ok;
        const key = `${flow} c=${c} ${t.name}`;
        results.set(key, [...(results.get(key) ?? []), s]);
      }
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];
rows.push("| case | target | req/s | p50 ms | p97.5 ms | p99 ms | errors | peak RSS MB |");
rows.push("|---|---|---:|---:|---:|---:|---:|---:|");
for (const [key, samples] of results) {
  const [flow, c, ...name] = key.split(" ");
  rows.push(
    `| ${flow} ${c} | ${name.join(" ")} | ${median(samples.map((s) => s.rps)).toFixed(0)} | ${median(samples.map((s) => s.p50))} | ${median(samples.map((s) => s.p975))} | ${median(samples.map((s) => s.p99))} | ${samples.reduce((a, s) => a + s.errors + s.non2xx, 0)} | ${Math.max(...samples.map((s) => s.rss)).toFixed(0)} |`,
  );
}
console.log(rows.join("\n"));
const rps = (flow: string, c: number, name: string) =>
  median((results.get(`${flow} c=${c} ${name}`) ?? []).map((s) => s.rps));
for (const flow of ["W2", "W1"]) {
  const sy = rps(flow, 20, "Switchyard");
  console.log(`\n${flow} c=20: Switchyard/raw = ${(sy / rps(flow, 20, "raw node:http")).toFixed(2)}`);
  console.log(
    `${flow} c=20: durable floor/raw = ${(rps(flow, 20, "durable floor") / rps(flow, 20, "raw node:http")).toFixed(2)}, Switchyard/durable floor = ${(sy / rps(flow, 20, "durable floor")).toFixed(2)}`,
  );
  const nr = targets.find((x) => x.t.name.startsWith("Node-RED"));
  if (nr) console.log(`${flow} c=20: Switchyard/Node-RED = ${(sy / rps(flow, 20, nr.t.name)).toFixed(2)}`);
  if (baseline) {
    for (const c of [20, 1]) {
      const base = rps(flow, c, `Switchyard @${baseline.sha}`);
      console.log(
        `${flow} c=${c}: Switchyard/Switchyard @${baseline.sha} = ${(rps(flow, c, "Switchyard") / base).toFixed(3)}`,
      );
    }
  }
}

for (const { t } of targets) await t.stop();
const db = openRawDatabase(path.join(dataDir, "switchyard.db"));
const runs = (db.prepare(`SELECT COUNT(*) n FROM "Run" WHERE status = 'succeeded'`).get() as { n: number }).n;
const unfinished = (
  db
    .prepare(
      `SELECT COUNT(*) n FROM "Run" WHERE status NOT IN ('succeeded','failed','cancelled','timed_out')`,
    )
    .get() as { n: number }
).n;
const stepless = (
  db
    .prepare(`SELECT COUNT(*) n FROM "Run" r WHERE NOT EXISTS (SELECT 1 FROM "Step" s WHERE s.runId = r.id)`)
    .get() as { n: number }
).n;
db.close();
console.log(
  `\npersistence: ${switchyardOk} measured 2xx (plus warm-up) → ${runs} succeeded runs, ${unfinished} unfinished, ${stepless} runs without steps`,
);

// Issue 12, acceptance 2, for W2 at c=20 (medians; peak RSS over every sample).
const w2Samples = results.get("W2 c=20 Switchyard") ?? [];
const nodeRed = targets.find((x) => x.t.name.startsWith("Node-RED"))?.t.name;
const vsNodeRed = nodeRed ? rps("W2", 20, "Switchyard") / rps("W2", 20, nodeRed) : undefined;
const vsRaw = rps("W2", 20, "Switchyard") / rps("W2", 20, "raw node:http");
const p99 = median(w2Samples.map((s) => s.p99));
const peak = Math.max(...w2Samples.map((s) => s.rss));
const verdicts: [string, boolean | undefined, string][] = [
  [
    "≥ 1.2× Node-RED",
    vsNodeRed === undefined ? undefined : vsNodeRed >= 1.2,
    vsNodeRed?.toFixed(2) ?? "run with --node-red",
  ],
  ["≥ 0.25× raw node:http", vsRaw >= 0.25, vsRaw.toFixed(2)],
  ["p99 ≤ 20 ms", p99 <= 20, `${p99} ms`],
  ["RSS ≤ 200 MB", peak <= 200, `${peak.toFixed(0)} MB`],
  [
    "every run persisted with its steps",
    runs >= switchyardOk && unfinished === 0 && stepless === 0,
    `${runs} runs for ${switchyardOk} answers`,
  ],
];
console.log("\nacceptance 2 (W2, c=20):");
for (const [what, ok, value] of verdicts)
  console.log(`  ${ok === undefined ? "?" : ok ? "✓" : "✗"} ${what}: ${value}`);
rmSync(work, { recursive: true, force: true });
