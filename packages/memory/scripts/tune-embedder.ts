// Honest tuning of the default embedder on bench/data/memory-quality.json: queries are split into a
// tuning half and a held-out half (alternating within each query type, in id order). Every setting is
// scored on the tuning half only; the best one (by balanced recall@5 + MRR) is then reported on the
// held-out half, next to lexical search on the same half. The labelled data is never changed.
//   cd packages/memory && npx tsx scripts/tune-embedder.ts [asset.bin ...]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBlendedEmbedder } from "../src/embed/blend";
import type { Embedder } from "../src/embed/embedder";
import { createHashingEmbedder } from "../src/embed/hashing";
import { createWordVectorEmbedder } from "../src/embed/word-vectors";
import { defaultWordVectorsPath } from "../src/embed/word-vector-asset";
import { openMemory, type SearchMode } from "../src/index";
import { halfOf, ingestQualitySet, score } from "./quality-set";

type Scores = Record<SearchMode, { recall: number; mrr: number; n: number }>;
async function evaluate(embedder: Embedder, which: "tune" | "held" | "all", fusionK = 60): Promise<Scores> {
  const dir = mkdtempSync(join(tmpdir(), "memory-tune-"));
  const memory = openMemory({ file: join(dir, "m.db"), embedder, log: () => {}, fusion: { k: fusionK } });
  try {
    await ingestQualitySet(memory);
    const out = {} as Scores;
    for (const mode of ["lexical", "semantic", "balanced"] as const)
      out[mode] = await score(memory, mode, which);
    return out;
  } finally {
    memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (s: Scores) =>
  (["lexical", "semantic", "balanced"] as const)
    .map((m) => `${m} ${s[m].recall.toFixed(3)}/${s[m].mrr.toFixed(3)}`)
    .join("  ");

const assets = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [defaultWordVectorsPath()];
const candidates: Array<{ label: string; make: () => Embedder }> = [];
for (const path of assets)
  for (const sifA of [1e-3, 1e-4])
    for (const unitWords of [false, true])
      for (const share of [0.3, 0.5, 0.7, 0.85])
        candidates.push({
          label: `${path.split("/").pop()} sifA=${sifA}${unitWords ? " unit" : ""} word-share=${share}`,
          make: () =>
            createBlendedEmbedder([
              { embedder: createWordVectorEmbedder({ path, sifA, unitWords }), weight: share },
              { embedder: createHashingEmbedder(), weight: 1 - share },
            ]),
        });
candidates.push({ label: "hashing only", make: () => createHashingEmbedder() });

let best: { label: string; make: () => Embedder; score: number } | null = null;
console.log(`tuning half: ${[...halfOf.values()].filter((h) => h === "tune").length} queries (recall@5/MRR)`);
for (const c of candidates) {
  const s = await evaluate(c.make(), "tune");
  const score = s.balanced.recall + s.balanced.mrr;
  console.log(`${c.label.padEnd(48)} ${fmt(s)}`);
  if (!best || score > best.score) best = { ...c, score };
}
console.log(`\nchosen on the tuning half: ${best!.label}`);
for (const k of [60, 20, 100])
  console.log(`held-out half, RRF k=${k}: ${fmt(await evaluate(best!.make(), "held", k))}`);
console.log(`whole set, RRF k=60:       ${fmt(await evaluate(best!.make(), "all"))}`);
console.log(`hashing only, held-out:    ${fmt(await evaluate(createHashingEmbedder(), "held"))}`);
