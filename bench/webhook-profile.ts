/**
 * Profiles the webhook hot path: starts the precompiled runtime with flow W2 (or the durable floor) under
 * `node --cpu-prof`, drives it with autocannon, and prints server CPU per request, peak RSS and the functions that cost the most.
 *
 *   npx tsx bench/webhook-profile.ts [--role start|worker|floor] [--seconds 10] [--connections 20] [--top 30]
 *
 * --role start (the default) profiles the process `npm start` runs, web app loaded; worker profiles it without;
 * floor profiles the durable floor (bench/durable-floor.mjs) on the same database, to set the same statements'
 * cost in both side by side.
 *
 * The profile file stays in the printed folder (open it in Chrome DevTools → Performance for the full tree).
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createHost, createLogger, parseConfig } from "../packages/runtime/src/index";
import { driveW2, type Role, rssMb, startDurableFloor, startSwitchyard, w2 } from "./webhook-targets";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "20" },
    top: { type: "string", default: "30" },
    role: { type: "string", default: "start" },
  },
});

const roles = ["start", "worker", "floor"];
if (!roles.includes(values.role))
  throw new Error(`--role must be one of ${roles.join(", ")}, not ${values.role}`);

const work = mkdtempSync(path.join(os.tmpdir(), "sy-webhook-profile-"));
const dataDir = path.join(work, "switchyard");
const host = await createHost(
  parseConfig({ SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_SMTP_PORT: "0" }),
  createLogger("silent"),
  { seed: false },
);
const flowId = (await host.flows.create({ name: "W2", definition: w2 })).id;
await host.control.setActive(flowId, true);
await host.close();

const profDir = path.join(work, "profile");
const nodeArgs = [`--cpu-prof`, `--cpu-prof-dir=${profDir}`];
const target =
  values.role === "floor"
    ? await startDurableFloor(path.join(dataDir, "switchyard.db"), flowId, nodeArgs)
    : await startSwitchyard(dataDir, { role: values.role as Role, nodeArgs });
const cpuMs = () => {
  const f = readFileSync(`/proc/${target.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) * (1000 / 100); // utime + stime in clock ticks (USER_HZ = 100)
};
const drive = (seconds: number) => driveW2(target.url, Number(values.connections), seconds);
await drive(3);
const before = cpuMs();
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, rssMb(target.pid))), 250);
const r = await drive(Number(values.seconds));
clearInterval(sampler);
const used = cpuMs() - before;
await target.stop();

console.log(
  `${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`,
);
console.log(
  `server CPU ${((used * 1000) / r.requests.total).toFixed(0)} µs per request, peak RSS ${peak.toFixed(0)} MB`,
);

// Self and inclusive time per function of the main thread's profile.
const file = readdirSync(profDir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .map((f) => path.join(profDir, f))
  .sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0]!;
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const profile = JSON.parse(readFileSync(file, "utf8")) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// Function, file and line (of the bundle for our code: its .map names the source).
const label = (n: ProfileNode) =>
  `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url
    .replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
    .replace(/^file:\/\/.*\/packages\//, "")
    .replace(/^file:\/\/.*\/bench\//, "bench/")}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ""}`;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  self.set(label(byId.get(id)!), (self.get(label(byId.get(id)!)) ?? 0) + dt);
  const seen = new Set<string>();
  for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
    const l = label(byId.get(x)!);
    if (!seen.has(l)) inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
    seen.add(l);
  }
});
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
    console.log(`${((100 * t) / total).toFixed(1).padStart(5)} %  ${name}`);
};
show("self time", self);
show("inclusive time", inclusive);
console.log(`\nprofile: ${file}`);
