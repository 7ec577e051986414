// Retrieval quality of the memory service on the labelled set in bench/data/memory-quality.json.
// Prints recall@5 and MRR (over the top 10) for lexical, semantic and balanced search.
// Run: cd /work/main && npx tsx bench/memory-quality.ts
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory, type SearchMode } from "../packages/memory/src/index";

interface Data {
  items: Array<{ id: string; kind: "memory" | "transcript" | "person" | "profile"; key: string; content: string; thread?: string }>;
  queries: Array<{ id: string; type: string; query: string; relevant: string[] }>;
}

const data = JSON.parse(readFileSync(new URL("./data/memory-quality.json", import.meta.url), "utf8")) as Data;
const dir = mkdtempSync(join(tmpdir(), "memory-quality-"));
const memory = openMemory({ file: join(dir, "memory.db"), log: () => {} });

try {
  await memory.ingest.addMany(
    data.items.map((x) => ({ kind: x.kind, key: x.key, content: x.content, thread: x.thread, source: `bench:${x.id}` })),
  );
  const idOf = new Map<string, string>();
  for (const item of memory.reader.list({ limit: 500 }).items) idOf.set(item.id, item.source!.slice("bench:".length));

  const modes: SearchMode[] = ["lexical", "semantic", "balanced"];
  const types = ["all", ...new Set(data.queries.map((q) => q.type))];
  const table: Record<string, Record<string, string>> = {};
  for (const mode of modes) {
    const sums = new Map<string, { recall: number; mrr: number; n: number }>();
    for (const q of data.queries) {
      const hits = await memory.reader.search(q.query, { namespace: "global", mode, limit: 10 });
      const ranked = hits.map((h) => idOf.get(h.item.id));
      const relevant = new Set(q.relevant);
      const found = ranked.slice(0, 5).filter((id) => id && relevant.has(id)).length;
      const recall = found / Math.min(relevant.size, 5);
      const first = ranked.findIndex((id) => id && relevant.has(id));
      const mrr = first === -1 ? 0 : 1 / (first + 1);
      for (const t of ["all", q.type]) {
        const s = sums.get(t) ?? { recall: 0, mrr: 0, n: 0 };
        s.recall += recall;
        s.mrr += mrr;
        s.n++;
        sums.set(t, s);
      }
    }
    for (const t of types) {
      const s = sums.get(t)!;
      table[`${mode}`] ??= {};
      table[mode]![`${t} (${s.n}) recall@5`] = (s.recall / s.n).toFixed(3);
      table[mode]![`${t} MRR`] = (s.mrr / s.n).toFixed(3);
    }
  }
  console.log(`memory-quality: ${data.items.length} items, ${data.queries.length} queries, embedder ${memory.reader.status().embedderId}, vectors ${memory.vectorBackend}`);
  console.table(table);
  const [lr, lm, br, bm] = [table.lexical!, table.lexical!, table.balanced!, table.balanced!].map(
    (row, i) => row[i % 2 === 0 ? `all (${data.queries.length}) recall@5` : "all MRR"]!,
  );
  const beats = Number(br) > Number(lr) && Number(bm) >= Number(lm);
  console.log(`balanced beats lexical: ${beats ? "yes" : "no"} (recall@5 ${br} vs ${lr}, MRR ${bm} vs ${lm})`);
} finally {
  memory.close();
  rmSync(dir, { recursive: true, force: true });
}
