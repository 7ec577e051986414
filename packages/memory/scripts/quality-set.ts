// The labelled quality set (bench/data/memory-quality.json) and its fixed split into a tuning half and
// a held-out half: queries alternate within each query type in id order. Shared by the tuning scripts;
// bench/memory-quality.ts uses the same rule. The labelled data is never changed.
import { readFileSync } from "node:fs";
import type { MemoryService, SearchMode } from "../src/index";

export interface QualitySet {
  items: Array<{
    id: string;
    kind: "memory" | "transcript" | "person" | "profile";
    key: string;
    content: string;
    thread?: string;
  }>;
  queries: Array<{ id: string; type: string; query: string; relevant: string[] }>;
}

export type Half = "tune" | "held";

export const qualitySet = JSON.parse(
  readFileSync(new URL("../../../bench/data/memory-quality.json", import.meta.url), "utf8"),
) as QualitySet;

export const halfOf = new Map<string, Half>();
{
  const seen = new Map<string, number>();
  for (const q of [...qualitySet.queries].sort((a, b) => a.id.localeCompare(b.id))) {
    const n = seen.get(q.type) ?? 0;
    seen.set(q.type, n + 1);
    halfOf.set(q.id, n % 2 === 0 ? "tune" : "held");
  }
}

export async function ingestQualitySet(memory: MemoryService): Promise<void> {
  await memory.ingest.addMany(
    qualitySet.items.map((x) => ({
      kind: x.kind,
      key: x.key,
      content: x.content,
      thread: x.thread,
      source: `b:${x.id}`,
    })),
  );
}

export interface Score {
  recall: number;
  mrr: number;
  n: number;
}

/** recall@5 and MRR (top 10) of one mode over one half (or all queries). */
export async function score(memory: MemoryService, mode: SearchMode, which: Half | "all"): Promise<Score> {
  const idOf = new Map(memory.reader.list({ limit: 500 }).items.map((i) => [i.id, i.source?.slice(2)]));
  const s = { recall: 0, mrr: 0, n: 0 };
  for (const q of qualitySet.queries) {
    if (which !== "all" && halfOf.get(q.id) !== which) continue;
    const hits = await memory.reader.search(q.query, { namespace: "global", mode, limit: 10 });
    const ranked = hits.map((h) => idOf.get(h.item.id));
    const rel = new Set(q.relevant);
    s.recall += ranked.slice(0, 5).filter((id) => id && rel.has(id)).length / Math.min(rel.size, 5);
    const first = ranked.findIndex((id) => id && rel.has(id));
    s.mrr += first === -1 ? 0 : 1 / (first + 1);
    s.n++;
  }
  return { recall: s.recall / s.n, mrr: s.mrr / s.n, n: s.n };
}

export const fmt = (s: Score) => `${s.recall.toFixed(3)} / ${s.mrr.toFixed(3)}`;
