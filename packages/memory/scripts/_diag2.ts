import { halfOf, qualitySet as data } from "./quality-set";
import { createDefaultEmbedder } from "../src/index";
import { contentWords } from "../src/embed/text";
const e = createDefaultEmbedder({
  match: {
    contrast: process.argv[3] === "c",
    minSimilarity: Number(process.argv[4] ?? 0),
    power: Number(process.argv[5] ?? 1),
  },
});
const texts = data.items.map((x) => `${x.key}\n${x.content}`);
const df = new Map<string, number>();
for (const t of texts) for (const w of new Set(contentWords(t))) df.set(w, (df.get(w) ?? 0) + 1);
const idf = (w: string) => Math.log(1 + (texts.length - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));
const cfgs = [["base", e]] as const;
let sumR = 0,
  n = 0;
for (const q of data.queries) {
  if (q.type !== "paraphrase" || halfOf.get(q.id) !== (process.argv[2] ?? "tune")) continue;
  const s = await e.relevance!(q.query, texts, idf);
  const order = s
    .map((v, i) => [v, i] as const)
    .sort((a, b) => b[0] - a[0])
    .map(([, i]) => data.items[i]!.id);
  const ranks = q.relevant.map((id) => order.indexOf(id) + 1);
  const rel = new Set(q.relevant);
  const r = order.slice(0, 5).filter((id) => rel.has(id)).length / Math.min(rel.size, 5);
  sumR += r;
  n++;
  console.log(q.id, r.toFixed(2), q.query, "ranks", ranks.join(","));
}
console.log("relevance-only over all items, paraphrase recall@5", (sumR / n).toFixed(3));
