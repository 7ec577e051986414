import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDefaultEmbedder, openMemory } from "../src/index";
import { fmt, ingestQualitySet, score } from "./quality-set";
const dir = mkdtempSync(join(tmpdir(), "mt-"));
const file = join(dir, "m.db");
{
  const m = openMemory({ file, log: () => {} });
  await ingestQualitySet(m);
  m.close();
}
const grid = JSON.parse(process.argv[2]!) as Array<Record<string, number>>;
for (const g of grid) {
  const embedder = createDefaultEmbedder({
    expansion: { neighbours: g.n ?? 5, minSimilarity: g.ms ?? 0.6 },
    match: { contrast: g.co === 1, power: g.pw ?? 1 },
  });
  const m = openMemory({
    file,
    embedder,
    log: () => {},
    headBoost: g.hb ?? 0,
    fusion: { expansionWeight: g.ew ?? 0, k: g.k ?? 60, lexicalWeight: g.lw ?? 1 },
    finalRerank: { share: g.fs ?? 0, depth: g.fd ?? 20 },
  });
  const t = await score(m, "balanced", "tune");
  const h = process.argv[3] === "held" ? await score(m, "balanced", "held") : null;
  console.log(JSON.stringify(g), "tune", fmt(t), h ? `held ${fmt(h)}` : "");
  m.close();
}
