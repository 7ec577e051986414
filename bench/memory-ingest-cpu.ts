// Ingest CPU time (user + system, all threads) for N generated items: a figure that, unlike items/s, a shared
// machine barely changes, so two trees can be compared under load. Run from the repo root:
// npx tsx bench/memory-ingest-cpu.ts <path to a packages/memory folder> [items=20000]
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { rand, sentence } from "./memory-text";
const [pkg, nArg] = process.argv.slice(2);
if (!pkg)
  throw new Error("usage: npx tsx bench/memory-ingest-cpu.ts <path to a packages/memory folder> [items]");
const { openMemory } = await import(pathToFileURL(resolve(pkg, "src/index.ts")).href);
const N = Number(nArg ?? 20000);
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
