/**
 * What the garbage collector costs on the webhook hot path, this checkout against another commit: both run
 * W2 under `node --trace-gc-nvp`, alternating, on data dirs of their own, and the table gives per target
 * the bytes promoted to the old generation per request, the mark-compacts and the time paused in minor and
 * full GCs, next to req/s, p99 and peak RSS. GC figures vary far less between identical runs than req/s.
 *
 *   npx tsx bench/webhook-gc.ts --baseline REF [--role start|worker] [--pairs 3] [--seconds 10] [--connections 20]
 *     [--node-args=--max-semi-space-size=4]   (extra Node.js flags for this checkout only; `--baseline HEAD`
 *                                               then measures what the flags alone change)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  baselineCheckout,
  driveW2,
  type Role,
  root,
  rssMb,
  seedDataDir,
  startSwitchyard,
} from "./webhook-targets";

const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    role: { type: "string", default: "worker" },
    pairs: { type: "string", default: "3" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "20" },
    "node-args": { type: "string", default: "" },
  },
});
if (!values.baseline) throw new Error("--baseline REF is required (the commit to compare with)");
const baseline = baselineCheckout(values.baseline);
const work = mkdtempSync(path.join(os.tmpdir(), "sy-webhook-gc-"));
const targets = [
  {
    name: `this checkout${values["node-args"] ? ` ${values["node-args"]}` : ""}`,
    checkout: root,
    dir: path.join(work, "current"),
    nodeArgs: values["node-args"]!.split(" ").filter(Boolean),
  },
  { name: `@${baseline.sha}`, checkout: baseline.dir, dir: path.join(work, "baseline"), nodeArgs: [] },
];
for (const t of targets) seedDataDir(t.checkout, t.dir, 0);

interface Row {
  reqs: number;
  p99: number;
  promotedKb: number;
  markCompacts: number;
  mcMs: number;
  scavengeMs: number;
  rss: number;
}
const rows = new Map<string, Row[]>();
for (let pair = 0; pair < Number(values.pairs); pair++) {
  for (const t of targets) {
    let trace = "";
    const target = await startSwitchyard(t.dir, {
      role: values.role as Role,
      checkout: t.checkout,
      name: t.name,
      nodeArgs: ["--trace-gc-nvp", ...t.nodeArgs],
      onOutput: (chunk) => {
        trace += chunk;
      },
    });
    const drive = (seconds: number) => driveW2(target.url, Number(values.connections), seconds);
    await drive(3);
    trace = "";
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(target.pid))), 250);
    const r = await drive(Number(values.seconds));
    clearInterval(sampler);
    const gc = trace.split("\n");
    await target.stop();
    const sum = (kind: string, field: string) =>
      gc
        .filter((l) => l.includes(` gc=${kind} `))
        .reduce((n, l) => n + Number(new RegExp(` ${field}=([\\d.]+)`).exec(l)?.[1] ?? 0), 0);
    const list = rows.get(t.name) ?? [];
    list.push({
      reqs: r.requests.average,
      p99: r.latency.p99,
      promotedKb: sum("s", "promoted") / 1024 / r.requests.total,
      markCompacts: gc.filter((l) => l.includes(" gc=mc ")).length,
      mcMs: sum("mc", "pause"),
      scavengeMs: sum("s", "pause"),
      rss: peak,
    });
    rows.set(t.name, list);
  }
}

const span = (xs: number[], digits = 0) => {
  const lo = Math.min(...xs).toFixed(digits);
  const hi = Math.max(...xs).toFixed(digits);
  return lo === hi ? lo : `${lo}–${hi}`;
};
console.log(
  `machine: ${os.cpus().length} cpus, node ${process.version}, load ${os.loadavg()[0]!.toFixed(2)}; W2, ${values.role}, c=${values.connections}, ${values.pairs} pairs × ${values.seconds} s (after 3 s warm-up), alternating`,
);
console.table(
  Object.fromEntries(
    [...rows].map(([name, rs]) => [
      name,
      {
        "req/s": span(rs.map((x) => x.reqs)),
        "p99 ms": span(rs.map((x) => x.p99)),
        "promoted KB/request": span(
          rs.map((x) => x.promotedKb),
          2,
        ),
        "mark-compacts": span(rs.map((x) => x.markCompacts)),
        "mark-compact ms": span(rs.map((x) => x.mcMs)),
        "scavenge ms": span(rs.map((x) => x.scavengeMs)),
        "peak RSS MB": span(rs.map((x) => x.rss)),
      },
    ]),
  ),
);
// The seeded data dirs grow by every run measured: nothing is kept.
rmSync(work, { recursive: true, force: true });
