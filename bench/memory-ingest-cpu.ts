// Ingest CPU time (user + system, all threads) for N generated items: a figure that, unlike items/s, a shared
// machine barely changes, so two trees can be compared under load. Run from the repo root:
// npx tsx bench/memory-ingest-cpu.ts <path to a packages/memory folder> [items=20000]
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
const [pkg, nArg] = process.argv.slice(2);
if (!pkg)
  throw new Error("usage: npx tsx bench/memory-ingest-cpu.ts <path to a packages/memory folder> [items]");
const { openMemory } = await import(pathToFileURL(resolve(pkg, "src/index.ts")).href);
const N = Number(nArg ?? 20000);
let seed = 0x9e3779b9;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
};
const VOCAB =
  "invoice payment customer order quote supplier paper delivery printer stock refund reminder payroll lease insurance backup shipping label banner poster flyer menu wedding invitation proof approval deadline friday monday thursday wholesale retail discount price increase contract meeting call email webhook flow cron schedule report summary digest account bank reconcile tax accountant holiday closure staff intern training safety cutter laminator ink cartridge colour profile coated uncoated courier pickup shelf notification sms".split(
    " ",
  );
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
const sentence = (n: number) => Array.from({ length: n }, () => pick(VOCAB)).join(" ");
const dir = mkdtempSync(join(tmpdir(), "mem-ingest-cpu-"));
const memory = openMemory({ file: join(dir, "memory.db"), log: () => {} });
const items = Array.from({ length: N }, (_, i) => ({
  key: `${sentence(3)} ${i}`,
  content: `${sentence(12 + Math.floor(rand() * 30))}.`,
  namespace: i % 10 === 0 ? "background" : "global",
  source: `bench:${i}`,
}));
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let s = 0; s < N; s += 10000) await memory.ingest.addMany(items.slice(s, s + 10000));
const cpu = process.cpuUsage(c0);
const wall = (performance.now() - t0) / 1000;
const cpuS = (cpu.user + cpu.system) / 1e6;
console.log(
  `${pkg}: ${N} items, CPU ${cpuS.toFixed(1)} s (${Math.round(N / cpuS)} items per CPU-second), wall ${wall.toFixed(1)} s, load ${loadavg()[0]!.toFixed(1)}`,
);
memory.close();
rmSync(dir, { recursive: true, force: true });
