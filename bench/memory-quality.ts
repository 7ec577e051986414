// Retrieval quality of the memory service on the labelled set in bench/data/memory-quality.json.
// Prints recall@5 and MRR (over the top 10) for lexical, semantic and balanced search: on all queries,
// per query type, and on the two halves used for honest tuning. The halves alternate within each query
// type in id order; settings are chosen on the tuning half only (packages/memory/scripts/tune-*.ts), so
// the held-out half shows what to expect on queries nobody tuned for.
// Run from the repo root: npx tsx bench/memory-quality.ts
// With an embedding server (any OpenAI-compatible POST /v1/embeddings) instead of the local embedder:
//   MEMORY_EMBEDDINGS_URL=http://127.0.0.1:11434/v1 MEMORY_EMBEDDINGS_MODEL=nomic-embed-text \
//   MEMORY_EMBEDDINGS_DIMENSIONS=768 [MEMORY_EMBEDDINGS_KEY=…] npx tsx bench/memory-quality.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { halfOf, ingestQualitySet, qualitySet as data } from "../packages/memory/scripts/quality-set";
import { createOpenAiEmbedder, openMemory, type SearchMode } from "../packages/memory/src/index";

// The split the tuning scripts use (packages/memory/scripts/quality-set.ts).
const half = new Map([...halfOf].map(([id, h]) => [id, h === "tune" ? "tuning half" : "held-out half"]));

const dir = mkdtempSync(join(tmpdir(), "memory-quality-"));
const server = process.env.MEMORY_EMBEDDINGS_URL;
const embedder = server
  ? createOpenAiEmbedder({
      baseUrl: server,
      model: process.env.MEMORY_EMBEDDINGS_MODEL ?? "",
      dimensions: Number(process.env.MEMORY_EMBEDDINGS_DIMENSIONS),
      apiKey: process.env.MEMORY_EMBEDDINGS_KEY,
    })
  : undefined;
const memory = openMemory({ file: join(dir, "memory.db"), log: () => {}, embedder });

try {
  await ingestQualitySet(memory);
  // Items carry their labelled id in `source` (see ingestQualitySet).
  const idOf = new Map(memory.reader.list({ limit: 500 }).items.map((i) => [i.id, i.source?.slice(2)]));

  const modes: SearchMode[] = ["lexical", "semantic", "balanced"];
  const types = [...new Set(data.queries.map((q) => q.type))];
  const groups = ["all", ...types, "tuning half", "held-out half"];
  const sums = new Map<string, { recall: number; mrr: number; n: number }>();
  for (const mode of modes) {
    for (const q of data.queries) {
      const hits = await memory.reader.search(q.query, { namespace: "global", mode, limit: 10 });
      const ranked = hits.map((h) => idOf.get(h.item.id));
      const relevant = new Set(q.relevant);
      const found = ranked.slice(0, 5).filter((id) => id && relevant.has(id)).length;
      const recall = found / Math.min(relevant.size, 5);
      const first = ranked.findIndex((id) => id && relevant.has(id));
      const mrr = first === -1 ? 0 : 1 / (first + 1);
      for (const g of ["all", q.type, half.get(q.id)!]) {
        const s = sums.get(`${mode}/${g}`) ?? { recall: 0, mrr: 0, n: 0 };
        s.recall += recall;
        s.mrr += mrr;
        s.n++;
        sums.set(`${mode}/${g}`, s);
      }
    }
  }
  const get = (mode: SearchMode, g: string) => {
    const s = sums.get(`${mode}/${g}`)!;
    return { recall: (s.recall / s.n).toFixed(3), mrr: (s.mrr / s.n).toFixed(3), n: s.n };
  };
  const tableOf = (gs: string[]) =>
    Object.fromEntries(
      modes.map((mode) => [
        mode,
        Object.fromEntries(
          gs.flatMap((g) => {
            const s = get(mode, g);
            return [
              [`${g} (${s.n}) recall@5`, s.recall],
              [`${g} MRR`, s.mrr],
            ];
          }),
        ),
      ]),
    );
  console.log(
    `memory-quality: ${data.items.length} items, ${data.queries.length} queries, embedder ${memory.reader.status().embedderId}, vectors ${memory.vectorBackend}`,
  );
  console.table(tableOf(groups.slice(0, 1 + types.length)));
  console.table(tableOf(["tuning half", "held-out half"]));
  for (const g of ["all", "held-out half"]) {
    const l = get("lexical", g);
    const b = get("balanced", g);
    const beats = Number(b.recall) > Number(l.recall) && Number(b.mrr) > Number(l.mrr);
    console.log(
      `balanced beats lexical on ${g === "all" ? "all queries" : "the held-out half"}: ${beats ? "yes" : "no"} (recall@5 ${b.recall} vs ${l.recall}, MRR ${b.mrr} vs ${l.mrr})`,
    );
  }
} finally {
  memory.close();
  rmSync(dir, { recursive: true, force: true });
}
