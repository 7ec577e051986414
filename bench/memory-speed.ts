// Speed of the memory service at 100 000 items: ingest throughput, p50/p99 of each agent tool, peak RSS.
// Run from the repo root: npx tsx bench/memory-speed.ts [items=100000] [queries per tool=300] [ANN-recall queries=200]
// [warm-up queries per row=20],
// or bundled as production runs (peak RSS without the TypeScript loader): node bench/bundled.mjs bench/memory-speed.ts …
// The ANN-recall queries each scan every vector exactly (for the truth), so use few at 1 000 000 items.
// Items are generated and ingested 10 000 at a time, so the bench's own inputs don't inflate peak RSS.
// MEMORY_PKG=<packages/memory folder> runs it against another checkout (say, main's), read-only.
// MEMORY_BENCH_DB=<file> keeps the store there and, when it already holds N items, reuses it without ingest
// (a 1 000 000-item store is generated once); then ingest and its share of peak RSS are not measured.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type * as MemoryPackage from "../packages/memory/src/index";
import type { ItemInput } from "../packages/memory/src/index";
import { pick, rand, sentence } from "./memory-text";

// MEMORY_PKG measures another checkout's package (run under tsx then: it is imported as TypeScript).
const { createMemoryTools, openMemory } = (
  process.env.MEMORY_PKG
    ? await import(pathToFileURL(join(resolve(process.env.MEMORY_PKG), "src/index.ts")).href)
    : await import("../packages/memory/src/index")
) as typeof MemoryPackage;

const N = Number(process.argv[2] ?? 100_000);
const ANN_QUERIES = Number(process.argv[4] ?? 200);
const QUERIES = Number(process.argv[3] ?? 300);
const WARMUP = Number(process.argv[5] ?? 20);
const BATCH = 10_000;

const NAMES =
  "Maya Sam Jordan Dev Rosa Ken Priya Leo Angela Tom Hana Marcus Olivia Raj Ellen Carlos Nina Greg".split(
    " ",
  );
const KINDS = ["memory", "memory", "memory", "transcript", "person", "profile"] as const;

function item(i: number): ItemInput {
  const kind = pick(KINDS);
  return {
    kind,
    key: kind === "person" || kind === "transcript" ? `${pick(NAMES)} ${i}` : `${sentence(3)} ${i}`,
    content: `${sentence(12 + Math.floor(rand() * 30))}.`,
    thread: kind === "transcript" ? `thread-${i % 500}` : undefined,
    namespace: i % 10 === 0 ? "background" : "global",
    source: `bench:${i}`,
  };
}

// CPU time (user + system, all threads) of one query: on a shared machine wall time is mostly waiting for a core,
// and CPU time is close to what the same query takes on a quiet one.
const cpuMs = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
};
const row = (times: number[], cpu: number[]) => ({
  p50_ms: pct(times, 50).toFixed(2),
  p99_ms: pct(times, 99).toFixed(2),
  cpu_p50_ms: pct(cpu, 50).toFixed(2),
  cpu_p99_ms: pct(cpu, 99).toFixed(2),
});
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const keptFile = process.env.MEMORY_BENCH_DB ? resolve(process.env.MEMORY_BENCH_DB) : null;
const dir = keptFile ? dirname(keptFile) : mkdtempSync(join(tmpdir(), "memory-speed-"));
const file = keptFile ?? join(dir, "memory.db");
const reuse = keptFile !== null && existsSync(keptFile);
const o0 = performance.now();
const memory = openMemory({ file, log: (l) => console.log(l) });
const openMs = performance.now() - o0;
try {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  if (reuse) {
    const have = memory.reader.status().items;
    if (have !== N) throw new Error(`${file} holds ${have} items, not ${N}`);
  } else {
    for (let start = 0; start < N; start += BATCH) {
      await memory.ingest.addMany(
        Array.from({ length: Math.min(BATCH, N - start) }, (_, i) => item(start + i)),
      );
    }
  }
  const ingestSeconds = (performance.now() - t0) / 1000;
  const ingestCpu = cpuMs(c0) / 1000;
  // Advance the generator as the ingest would have, so a reused store gets the same queries.
  if (reuse) for (let i = 0; i < N; i++) item(i);

  memory.ingest.setFlavour("communication", `# Communication\n${sentence(200)}`);
  const tools = createMemoryTools(memory.reader);
  const queryText = () => sentence(1 + Math.floor(rand() * 4));
  const argsFor: Record<string, () => unknown> = {
    memory_recall: () => ({ query: queryText() }),
    memory_hybrid_search: () => ({ query: queryText(), namespace: "global", mode: "balanced" }),
    memory_flavour: () => ({ flavour: "communication" }),
  };
  const rows: Record<string, Record<string, string>> = {};
  // Each row first runs WARMUP queries of its own kind, not counted in its percentiles: a new process's first
  // queries of a kind pay one-time costs (the word-vector asset, V8 compiling the code paths, per-word caches) —
  // ≈ 100 ms for the very first, 20–40 ms for the next few at 100 000 items. Their slowest is shown as
  // `warmup_max_ms`, so start-up stays visible; `0` as the fifth argument counts every query as before.
  const measure = async (name: string, query: () => Promise<unknown>) => {
    let warmupMax = 0;
    for (let q = 0; q < WARMUP; q++) {
      const s = performance.now();
      await query();
      warmupMax = Math.max(warmupMax, performance.now() - s);
    }
    const times: number[] = [];
    const cpu: number[] = [];
    for (let q = 0; q < QUERIES; q++) {
      const c = process.cpuUsage();
      const s = performance.now();
      await query();
      times.push(performance.now() - s);
      cpu.push(cpuMs(c));
    }
    rows[name] = { ...row(times, cpu), warmup_max_ms: WARMUP > 0 ? warmupMax.toFixed(2) : "-" };
  };
  for (const tool of tools) await measure(tool.name, () => tool.execute(argsFor[tool.name]!()));
  for (const mode of ["lexical", "semantic"] as const)
    await measure(`memory_hybrid_search mode=${mode}`, () =>
      tools[1]!.execute({ query: queryText(), namespace: "global", mode }),
    );
  // A rare word among common ones (an item's number, which is in its key): a word that picks out one item
  // beside words that are in a quarter of the store each.
  for (const mode of ["lexical", "balanced"] as const)
    await measure(`memory_hybrid_search mode=${mode}, one rare word`, () =>
      tools[1]!.execute({ query: `${queryText()} ${Math.floor(rand() * N)}`, namespace: "global", mode }),
    );

  // `vectorIndex` is absent before the ANN index existed ("hnsw" before the bit scan); the bench runs against all.
  const index = (memory as { vectorIndex?: string }).vectorIndex ?? "exact";
  console.log(
    `memory-speed: ${N} items, ${QUERIES} queries per row after ${WARMUP} warm-up queries, node ${process.version}, ${cpus().length} cpus, load ${loadavg()[0]!.toFixed(1)}, vectors ${memory.vectorBackend}, index ${index}, embedder ${memory.reader.status().embedderId}`,
  );
  console.log(
    reuse
      ? `ingest: not measured (reused ${file}; opening it took ${Math.round(openMs)} ms)`
      : `ingest: ${ingestSeconds.toFixed(1)} s, ${Math.round(N / ingestSeconds)} items/s, CPU ${ingestCpu.toFixed(1)} s = ${Math.round(N / ingestCpu)} items per CPU-second (embedding + FTS + vectors, 1000 per transaction)`,
  );
  console.table(rows);
  console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
  // A restart: the store is opened again (with the ANN index, its snapshot is loaded, not rebuilt).
  memory.close();
  // ANN recall: the ANN top 10 against an exact scan of the same vectors (same file, same backend, so
  // the vector table is shared, not rebuilt), over semantic recall queries without the score floor.
  if (index !== "exact" && ANN_QUERIES > 0) {
    const ann = openMemory({ file, log: () => {}, recallMinScore: -1 });
    const exact = openMemory({
      file,
      log: () => {},
      recallMinScore: -1,
      vectorIndex: "exact",
      vectorBackend: ann.vectorBackend,
    });
    let found = 0;
    let wanted = 0;
    for (let q = 0; q < ANN_QUERIES; q++) {
      const text = queryText();
      const truth = new Set((await exact.reader.recall(text, { limit: 10 })).map((h) => h.item.id));
      const got = await ann.reader.recall(text, { limit: 10 });
      found += got.filter((h) => truth.has(h.item.id)).length;
      wanted += truth.size;
    }
    console.log(
      `ANN recall of the exact top 10 over ${ANN_QUERIES} queries: ${(found / wanted).toFixed(3)} (load ${loadavg()[0]!.toFixed(1)})`,
    );
    exact.close();
    ann.close();
  }
  const r0 = performance.now();
  openMemory({ file, log: (l) => console.log(l) }).close();
  console.log(`reopen: ${Math.round(performance.now() - r0)} ms`);
} finally {
  memory.close();
  if (!keptFile) rmSync(dir, { recursive: true, force: true });
}
