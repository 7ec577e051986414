// Searches the bm25() field weights (title/key, body, tags, thread) on the quality set's TUNING half only;
// pass `held` to also print the held-out half for the settings given (do that once, for the pick).
// Run from packages/memory: npx tsx scripts/tune-fields.ts '[{"key":3,"tags":1.5}]' [held]
// Without a grid it searches key 1/2/3/4/6 × tags 0.5/1/1.5/2/3 × thread 0.5/1 (content stays 1).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../src/index";
import { fmt, ingestQualitySet, score } from "./quality-set";

const dir = mkdtempSync(join(tmpdir(), "memory-tune-"));
const file = join(dir, "memory.db");
const grid: Array<Record<string, number>> = process.argv[2]
  ? JSON.parse(process.argv[2])
  : [1, 2, 3, 4, 6].flatMap((key) =>
      [0.5, 1, 1.5, 2, 3].flatMap((tags) => [0.5, 1].map((thread) => ({ key, tags, thread }))),
    );
try {
  const seed = openMemory({ file, log: () => {} });
  await ingestQualitySet(seed);
  seed.close();
  for (const g of grid) {
    const m = openMemory({ file, log: () => {}, fieldWeights: g });
    const out = [`tuning balanced ${fmt(await score(m, "balanced", "tune"))}`];
    out.push(`lexical ${fmt(await score(m, "lexical", "tune"))}`);
    if (process.argv[3] === "held") {
      out.push(`| held-out balanced ${fmt(await score(m, "balanced", "held"))}`);
      out.push(`lexical ${fmt(await score(m, "lexical", "held"))}`);
    }
    console.log(JSON.stringify(g), out.join(" "));
    m.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
