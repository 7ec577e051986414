// Honest tuning of the field boost (title and tags) in the word-by-word re-ranking: each setting is
// scored on the tuning half only; the pick (best balanced recall@5 + MRR there, ties to the smaller
// boost) is then shown on the held-out half and on all queries next to no boost.
//   cd packages/memory && npx tsx scripts/tune-boosts.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../src/index";
import { fmt, ingestQualitySet, score } from "./quality-set";

const grid = [0, 0.1, 0.2, 0.3, 0.4, 0.5];
const dir = mkdtempSync(join(tmpdir(), "memory-tune-boosts-"));
const file = join(dir, "m.db");
try {
  const first = openMemory({ file, log: () => {} });
  await ingestQualitySet(first);
  first.close();
  const withBoost = async <T>(headBoost: number, fn: (m: ReturnType<typeof openMemory>) => Promise<T>) => {
    const memory = openMemory({ file, headBoost, log: () => {} });
    try {
      return await fn(memory);
    } finally {
      memory.close();
    }
  };
  let best = { boost: 0, value: -1 };
  for (const boost of grid) {
    const s = await withBoost(boost, (m) => score(m, "balanced", "tune"));
    const sem = await withBoost(boost, (m) => score(m, "semantic", "tune"));
    console.log(`headBoost=${boost}: tuning half balanced ${fmt(s)}, semantic ${fmt(sem)}`);
    if (s.recall + s.mrr > best.value) best = { boost, value: s.recall + s.mrr };
  }
  for (const boost of [...new Set([0, best.boost])]) {
    for (const which of ["held", "all"] as const) {
      const b = await withBoost(boost, (m) => score(m, "balanced", which));
      const sem = await withBoost(boost, (m) => score(m, "semantic", which));
      console.log(
        `headBoost=${boost}${boost === best.boost ? " (pick)" : ""}: ${which} balanced ${fmt(b)}, semantic ${fmt(sem)}`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
