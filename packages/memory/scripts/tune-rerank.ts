// Searches the #22 recall settings (word-by-word contrast and similarity floor, query expansion, final
// re-rank of the fused head, head boost, RRF constants) on the quality set's TUNING half only; pass
// `held` to also print the held-out half for the settings given (do that once, for the pick).
// Run from packages/memory: npx tsx scripts/tune-rerank.ts '[{"co":1,"mn":0.5},{"ew":0.2,"ms":0.75,"n":3}]' [held]
// Keys: co contrast (1 = on), mn minSimilarity, pw power, ew expansion weight, ms expansion minSimilarity,
// n neighbours per word, vw plain vector-list weight, fs final re-rank share, fd its depth, hb headBoost, k RRF k, lw lexical weight.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDefaultEmbedder, openMemory } from "../src/index";
import { fmt, ingestQualitySet, score } from "./quality-set";

const dir = mkdtempSync(join(tmpdir(), "memory-tune-"));
const file = join(dir, "memory.db");
try {
  const seed = openMemory({ file, log: () => {} });
  await ingestQualitySet(seed);
  seed.close();
  const grid = JSON.parse(process.argv[2] ?? "[{}]") as Array<Record<string, number>>;
  for (const g of grid) {
    const embedder = createDefaultEmbedder({
      expansion: { neighbours: g.n ?? 5, minSimilarity: g.ms ?? 0.6 },
      match: { contrast: g.co === 1, power: g.pw ?? 1, minSimilarity: g.mn ?? 0 },
    });
    const m = openMemory({
      file,
      embedder,
      log: () => {},
      headBoost: g.hb ?? 0,
      fusion: { expansionWeight: g.ew ?? 0, k: g.k ?? 60, lexicalWeight: g.lw ?? 1, vectorWeight: g.vw ?? 0 },
      finalRerank: { share: g.fs ?? 0, depth: g.fd ?? 20 },
    });
    const tune = await score(m, "balanced", "tune");
    const held = process.argv[3] === "held" ? await score(m, "balanced", "held") : null;
    console.log(JSON.stringify(g), `tuning ${fmt(tune)}`, held ? `held-out ${fmt(held)}` : "");
    m.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
