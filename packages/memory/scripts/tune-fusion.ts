// Honest tuning of balanced search on the quality set: the word-by-word re-ranking (word-match.ts:
// noise floor, power) and the fusion (lexical weight, RRF k) are scored on the tuning half only; the
// setting with the best balanced recall@5 + MRR there is then reported on the held-out half and on
// all queries, next to lexical search, and so are the untuned defaults the package ships. Ties go to
// the earlier setting in the grid (the plainer one). On this set the grid pick overfits the 28 tuning
// queries (see docs/benchmarks.md), which is why the shipped defaults stay the untuned ones.
//   cd packages/memory && npx tsx scripts/tune-fusion.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBlendedEmbedder } from "../src/embed/blend";
import { createHashingEmbedder } from "../src/embed/hashing";
import type { WordMatchOptions } from "../src/embed/word-match";
import { createWordVectorEmbedder } from "../src/embed/word-vectors";
import { openMemory, type OpenMemoryOptions } from "../src/index";
import { fmt, ingestQualitySet, type Score, score } from "./quality-set";

// The default embedder (embed/default.ts) with other re-ranking settings; stored vectors are the same.
const embedderWith = (match: WordMatchOptions) =>
  createBlendedEmbedder([
    { embedder: createWordVectorEmbedder({ sifA: 1e-3, unitWords: true, match }), weight: 0.5 },
    { embedder: createHashingEmbedder(), weight: 0.5 },
  ]);

interface Setting {
  match: WordMatchOptions;
  fusion: NonNullable<OpenMemoryOptions["fusion"]>;
}
const grid: Setting[] = [];
for (const minSimilarity of [0, 0.3, 0.5])
  for (const power of [1, 2, 3])
    for (const lexicalWeight of [1, 1.5, 2])
      for (const k of [60, 30, 10])
        grid.push({ match: { minSimilarity, power }, fusion: { k, lexicalWeight } });

const label = (s: Setting) =>
  `floor=${s.match.minSimilarity} power=${s.match.power} lexicalWeight=${s.fusion.lexicalWeight} k=${s.fusion.k}`;

const dir = mkdtempSync(join(tmpdir(), "memory-tune-fusion-"));
const file = join(dir, "m.db");
try {
  // Vectors do not depend on the settings: embed once, then reopen the same file per setting.
  const first = openMemory({ file, embedder: embedderWith({}), log: () => {} });
  await ingestQualitySet(first);
  first.close();
  const run = async (s: Setting, fn: (m: ReturnType<typeof openMemory>) => Promise<Score>) => {
    const memory = openMemory({ file, embedder: embedderWith(s.match), fusion: s.fusion, log: () => {} });
    try {
      return await fn(memory);
    } finally {
      memory.close();
    }
  };

  let best: { setting: Setting; value: number } | null = null;
  const lexHeld = await run(grid[0]!, (m) => score(m, "lexical", "held"));
  let beatsHeld = 0;
  let recallHeld = 0;
  let mrrHeld = 0;
  for (const s of grid) {
    const b = await run(s, (m) => score(m, "balanced", "tune"));
    // Held-out figures of every setting are counted (never used to choose): how robust is the method?
    const h = await run(s, (m) => score(m, "balanced", "held"));
    if (h.recall > lexHeld.recall && h.mrr > lexHeld.mrr) beatsHeld++;
    if (h.recall > lexHeld.recall) recallHeld++;
    if (h.mrr > lexHeld.mrr) mrrHeld++;
    console.log(`${label(s).padEnd(52)} balanced tuning half ${fmt(b)}`);
    if (!best || b.recall + b.mrr > best.value + 1e-9) best = { setting: s, value: b.recall + b.mrr };
  }
  console.log(
    `\nsettings where balanced beats lexical on the held-out half (both figures): ${beatsHeld} of ${grid.length} (recall@5 alone: ${recallHeld}, MRR alone: ${mrrHeld})`,
  );
  const untuned: Setting = { match: {}, fusion: {} };
  for (const [name, setting] of [
    [`grid pick on the tuning half (${label(best!.setting)})`, best!.setting],
    ["shipped defaults, untuned (floor 0, power 1, RRF k=60, equal weights)", untuned],
  ] as const) {
    console.log(`\n${name}:`);
    for (const which of ["tune", "held", "all"] as const) {
      const line = await run(setting, async (m) => {
        const parts: string[] = [];
        for (const mode of ["lexical", "semantic", "balanced"] as const)
          parts.push(`${mode} ${fmt(await score(m, mode, which))}`);
        return parts;
      });
      console.log(`  ${which.padEnd(5)} ${line.join("   ")}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
