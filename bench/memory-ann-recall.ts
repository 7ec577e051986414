// How much of the exact top k the ANN path returns, for a few candidate counts, on the speed bench's kind of
// items (random draws from a small vocabulary: thousands of near-ties, a hard case for any ANN index).
// The truth is an exact scan of the same vectors. Recall does not depend on the machine's load.
// Run from the repo root: npx tsx bench/memory-ann-recall.ts [items=100000] [queries=60] [k=10]
// MEMORY_BENCH_DB=<file> measures an existing store instead (e.g. the one bench/memory-speed.ts kept); items is then
// ignored.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../packages/memory/src/index";
import { rand, sentence } from "./memory-text";

const N = Number(process.argv[2] ?? 100_000);
const QUERIES = Number(process.argv[3] ?? 60);
const K = Number(process.argv[4] ?? 10);

const kept = process.env.MEMORY_BENCH_DB;
if (kept && !existsSync(kept)) throw new Error(`${kept} does not exist`);
const dir = kept ? null : mkdtempSync(join(tmpdir(), "memory-ann-recall-"));
const file = kept ?? join(dir!, "memory.db");
try {
  const seedStore = openMemory({ file, log: () => {} });
  for (let s = 0; !kept && s < N; s += 10_000) {
    await seedStore.ingest.addMany(
      Array.from({ length: Math.min(10_000, N - s) }, (_, i) => ({
        key: `${sentence(3)} ${s + i}`,
        content: `${sentence(12 + Math.floor(rand() * 30))}.`,
        source: `b:${s + i}`,
      })),
    );
  }
  seedStore.close();
  const queries = Array.from({ length: QUERIES }, () => sentence(1 + Math.floor(rand() * 4)));
  // Same file, same vector table: the exact scan reads the very vectors the index was built from.
  const exact = openMemory({
    file,
    log: () => {},
    recallMinScore: -1,
    vectorIndex: "exact",
    vectorBackend: "brute-force",
  });
  const truth: Array<Set<string>> = [];
  for (const q of queries)
    truth.push(new Set((await exact.reader.recall(q, { limit: K })).map((h) => h.item.id)));
  exact.close();
  const all = (_k: number, n: number) => n;
  const settings: Array<[string, Partial<Parameters<typeof openMemory>[0]>]> = [
    ["default: min(40k + 400, 800), the better half re-ranked", {}],
    ["default, all re-ranked", { annRerank: all }],
    ["400, all re-ranked", { annCandidates: () => 400, annRerank: all }],
    ["1200, all re-ranked", { annCandidates: () => 1200, annRerank: all }],
    ["1600, all re-ranked", { annCandidates: () => 1600, annRerank: all }],
  ];
  for (const [name, options] of settings) {
    const ann = openMemory({ file, log: () => {}, recallMinScore: -1, ...options });
    let found = 0;
    let wanted = 0;
    for (let i = 0; i < queries.length; i++) {
      const got = await ann.reader.recall(queries[i]!, { limit: K });
      found += got.filter((h) => truth[i]!.has(h.item.id)).length;
      wanted += truth[i]!.size;
    }
    console.log(
      `${kept ? file : `${N} items`}, candidates ${name}: ANN recall of the exact top ${K} over ${QUERIES} queries ${(found / wanted).toFixed(3)} (load ${loadavg()[0]!.toFixed(1)})`,
    );
    ann.close();
  }
} finally {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
