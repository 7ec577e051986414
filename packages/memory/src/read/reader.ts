import type Database from "better-sqlite3";
import type { AnnIndex } from "../ann/ann-index";
import { createAnnVectorSearch } from "../ann/ann-search";
import type { Embedder } from "../embed/embedder";
import type { Flavour } from "../flavours";
import { facetDoc, MEMORY_DOC, PROFILE_DOC, readDocument } from "../store/documents";
import { embeddingText, type ItemRow, toItem } from "../store/rows";
import { createVectorSearch, type VectorBackend } from "../store/vectors";
import {
  DEFAULT_NAMESPACE,
  type MemoryItem,
  type MemoryKind,
  type SearchHit,
  type SearchMode,
} from "../types";
import { reciprocalRankFusion } from "./fusion";
import { createWordStats } from "./idf";
import { createLexicalSearch, DEFAULT_FIELD_WEIGHTS, type FieldWeights } from "./lexical";

export interface ListOptions {
  namespace?: string;
  kind?: MemoryKind;
  thread?: string;
  limit?: number;
  offset?: number;
}

export interface MemoryStatus {
  items: number;
  byKind: Record<MemoryKind, number>;
  embedderId: string;
  vectorBackend: VectorBackend;
  /** Items without a vector from the current embedder (semantic search cannot find them yet). */
  pendingEmbeddings: number;
}

/** Read-only facade handed to agents' tools and to read-only UI routes. It has no write methods. */
export interface MemoryReader {
  recall(query: string, options?: { namespace?: string; limit?: number }): Promise<SearchHit[]>;
  search(
    query: string,
    options: { namespace: string; mode?: SearchMode; limit?: number },
  ): Promise<SearchHit[]>;
  /** The facet document, or null when it has not been built yet. */
  flavour(name: Flavour): string | null;
  /** Raw PROFILE.md and MEMORY.md ("" when unset). */
  userFiles(): { profile: string; memory: string };
  get(id: string): MemoryItem | null;
  list(options?: ListOptions): { items: MemoryItem[]; total: number };
  namespaces(): Array<{ namespace: string; items: number }>;
  threads(namespace: string): Array<{ thread: string; items: number; updatedAt: string }>;
  status(): MemoryStatus;
}

export interface ReaderOptions {
  /** Minimum cosine similarity for `recall` hits (embedder-specific; see README). */
  recallMinScore?: number;
  /**
   * Share of the word-by-word re-ranking score that comes from the item's title (key) and tags alone
   * (0 = the whole text only). Chosen on the quality set's tuning half (scripts/tune-boosts.ts).
   */
  headBoost?: number;
  /** bm25() weight of the title (key), body, tags and thread name in lexical ranking (field boosts). */
  fieldWeights?: Partial<FieldWeights>;
  /**
   * Reciprocal rank fusion constant and per-list weights for balanced mode. `expansionWeight` is the
   * weight of the full-text list for the query's expansion words (0 turns query expansion off).
   */
  fusion?: {
    k?: number;
    lexicalWeight?: number;
    semanticWeight?: number;
    expansionWeight?: number;
    /** Weight of the plain vector-order list beside the re-ranked one (0 = only the re-ranked list). */
    vectorWeight?: number;
  };
  /**
   * Final re-rank of balanced mode's fused top `depth` candidates: their order becomes
   * `(1 - share) · fused + share · relevance` (both 0..1; relevance is the word-by-word score).
   */
  finalRerank?: { share?: number; depth?: number };
  /**
   * How many candidates the ANN index proposes for `k` results before the exact re-rank (default
   * `min(40·k + 400, 800)`, at least k): more finds more of the exact top k and reads more vectors per query.
   */
  annCandidates?: (k: number) => number;
  /**
   * How many of those candidates, best first in the index's order, the exact re-rank reads (default: the better
   * half, at least 8·k; all of them when the index holds fewer than asked for).
   */
  annRerank?: (k: number, candidates: number) => number;
  log?: (line: string) => void;
}

export const DEFAULT_HEAD_BOOST = 0;
export const DEFAULT_EXPANSION_WEIGHT = 0;
export const DEFAULT_FINAL_SHARE = 0;

const headText = (item: MemoryItem) => [item.key, ...item.tags].join(" ");

// How deep each list is read before fusion: fusion needs candidates beyond the final limit.
const candidateDepth = (limit: number) => Math.max(50, limit * 5);

export function createMemoryReader(
  db: Database.Database,
  backend: VectorBackend,
  embedder: Embedder,
  options: ReaderOptions = {},
  /** Approximate vector search; without it every semantic query is an exact scan. */
  ann: AnnIndex | null = null,
): MemoryReader {
  const log = options.log ?? ((line: string) => console.warn(line));
  const minScore = options.recallMinScore ?? 0.2;
  const fusionK = options.fusion?.k ?? 60;
  const lexicalWeight = options.fusion?.lexicalWeight ?? 1;
  const semanticWeight = options.fusion?.semanticWeight ?? 1;
  const expansionWeight = options.fusion?.expansionWeight ?? DEFAULT_EXPANSION_WEIGHT;
  const vectorWeight = options.fusion?.vectorWeight ?? 0;
  const finalShare = options.finalRerank?.share ?? DEFAULT_FINAL_SHARE;
  const finalDepth = options.finalRerank?.depth ?? 20;
  const headBoost = options.headBoost ?? DEFAULT_HEAD_BOOST;
  const wordStats = createWordStats(db);
  const idfNow = () => wordStats().idf;
  const lexical = createLexicalSearch(db, wordStats, { ...DEFAULT_FIELD_WEIGHTS, ...options.fieldWeights });
  const vectorSearch = ann
    ? createAnnVectorSearch(db, backend, ann, options.annCandidates, log, options.annRerank)
    : createVectorSearch(db, backend);
  const byId = db.prepare("SELECT * FROM items WHERE id = ?");

  const loadRows = (seqs: number[]): Map<number, MemoryItem> => {
    const out = new Map<number, MemoryItem>();
    for (let i = 0; i < seqs.length; i += 500) {
      const chunk = seqs.slice(i, i + 500);
      const rows = db
        .prepare(`SELECT * FROM items WHERE seq IN (${chunk.map(() => "?").join(",")})`)
        .all(...chunk) as ItemRow[];
      for (const r of rows) out.set(r.seq, toItem(r));
    }
    return out;
  };

  // null means "semantic search unavailable" (embedder failed), as opposed to "nothing similar".
  const semantic = async (query: string, namespace: string, k: number, idf = idfNow()) => {
    try {
      const q = embedder.embedQuery
        ? await embedder.embedQuery(query, idf)
        : (await embedder.embed([query]))[0]!;
      return vectorSearch(q, namespace, k);
    } catch (err) {
      log(`memory: query embedding failed (${(err as Error).message}); using lexical search only`);
      return null;
    }
  };

  // Words related to the query's (query expansion); none when the embedder offers none or fails.
  const expand = async (query: string): Promise<string[]> => {
    if (!embedder.expand) return [];
    try {
      return (await embedder.expand(query)).map((x) => x.word);
    } catch (err) {
      log(`memory: query expansion failed (${(err as Error).message}); searching the query's words only`);
      return [];
    }
  };

  // Re-orders a candidate pool by the embedder's word-by-word relevance (most relevant first); null
  // when the embedder cannot judge relevance or failed to.
  const rerank = async (
    query: string,
    rows: Map<number, MemoryItem>,
    seqs: number[],
    idf: (w: string) => number,
  ) => {
    if (!embedder.relevance || seqs.length === 0) return null;
    const pool = seqs.filter((seq) => rows.has(seq));
    try {
      const scores = await embedder.relevance(
        query,
        pool.map((seq) => embeddingText(rows.get(seq)!)),
        idf,
      );
      if (headBoost > 0) {
        // Field boost: how well the title and tags alone answer the query, blended in.
        const head = await embedder.relevance(
          query,
          pool.map((seq) => headText(rows.get(seq)!)),
          idf,
        );
        for (let i = 0; i < scores.length; i++)
          scores[i] = (1 - headBoost) * scores[i]! + headBoost * head[i]!;
      }
      // Stable sort: candidates no query word relates to (typos the hashed n-grams caught, say) stay,
      // after the rest and in the order the indexes gave them.
      return pool.map((seq, i) => ({ seq, score: scores[i]! })).sort((a, b) => b.score - a.score);
    } catch (err) {
      log(`memory: re-ranking failed (${(err as Error).message}); using vector order`);
      return null;
    }
  };

  const lexicalHits = (query: string, namespace: string, limit: number): SearchHit[] => {
    const matches = lexical(query, namespace, limit);
    const rows = loadRows(matches.map((m) => m.seq));
    const best = matches[0]?.bm25 ?? -1;
    return matches.flatMap((m, i) => {
      const item = rows.get(m.seq);
      // bm25 is unbounded; relative to the best hit it reads as 0..1.
      return item ? [{ item, score: best < 0 ? m.bm25 / best : 0, lexicalRank: i + 1 }] : [];
    });
  };

  const reader: MemoryReader = {
    async recall(query, opts = {}) {
      const namespace = opts.namespace ?? DEFAULT_NAMESPACE;
      const limit = opts.limit ?? 5;
      const matches = await semantic(query, namespace, limit);
      // Without vectors (provider down, or nothing embedded yet) recall still answers lexically.
      if (matches === null || matches.length === 0) return lexicalHits(query, namespace, limit);
      const kept = matches.filter((m) => m.similarity >= minScore);
      const rows = loadRows(kept.map((m) => m.seq));
      return kept.flatMap((m, i) => {
        const item = rows.get(m.seq);
        return item ? [{ item, score: Math.max(0, m.similarity), semanticRank: i + 1 }] : [];
      });
    },

    async search(query, opts) {
      const mode = opts.mode ?? "balanced";
      const limit = opts.limit ?? 10;
      if (mode === "lexical") return lexicalHits(query, opts.namespace, limit);
      const depth = candidateDepth(limit);
      const idf = idfNow();
      const sem = await semantic(query, opts.namespace, depth, idf);
      const lex = mode === "balanced" ? lexical(query, opts.namespace, depth) : [];
      const expansion = mode === "balanced" && expansionWeight > 0 ? await expand(query) : [];
      const exp = expansion.length > 0 ? lexical(query, opts.namespace, depth, expansion) : [];
      // Candidates from every list; semantic order is then re-judged word by word where possible.
      const pool = [
        ...new Set([...lex.map((m) => m.seq), ...(sem ?? []).map((m) => m.seq), ...exp.map((m) => m.seq)]),
      ];
      const rows = loadRows(pool);
      const reranked = sem === null ? null : await rerank(query, rows, pool, idf);
      const semanticList =
        reranked ?? (sem ?? []).map((m) => ({ seq: m.seq, score: Math.max(0, m.similarity) }));
      if (mode === "semantic") {
        return semanticList.slice(0, limit).flatMap((m, i) => {
          const item = rows.get(m.seq);
          return item ? [{ item, score: m.score, semanticRank: i + 1 }] : [];
        });
      }
      let fused = reciprocalRankFusion(
        [
          { seqs: lex.map((m) => m.seq), weight: lexicalWeight },
          { seqs: semanticList.map((m) => m.seq), weight: semanticWeight },
          { seqs: exp.map((m) => m.seq), weight: expansionWeight },
          { seqs: reranked === null ? [] : (sem ?? []).map((m) => m.seq), weight: vectorWeight },
        ],
        fusionK,
      );
      if (reranked !== null && finalShare > 0) {
        // Final re-rank of the fused head: the word-by-word relevance gets a direct say, not only a rank.
        const relevance = new Map(reranked.map((r) => [r.seq, r.score]));
        const top = fused.slice(0, Math.max(finalDepth, limit));
        const best = top[0]?.score ?? 1;
        const blended = top
          .map((f) => ({
            f,
            s: (1 - finalShare) * (best > 0 ? f.score / best : 0) + finalShare * (relevance.get(f.seq) ?? 0),
          }))
          .sort((a, b) => b.s - a.s)
          // The shown score is the blend (0..1), so scores still fall down the list.
          .map(({ f, s: blend }) => ({ ...f, score: blend }));
        fused = [...blended, ...fused.slice(top.length)];
      }
      fused = fused.slice(0, limit);
      return fused.flatMap((f) => {
        const item = rows.get(f.seq);
        if (!item) return [];
        const hit: SearchHit = { item, score: f.score };
        if (f.ranks[0] !== undefined) hit.lexicalRank = f.ranks[0];
        if (f.ranks[1] !== undefined) hit.semanticRank = f.ranks[1];
        return [hit];
      });
    },

    flavour: (name) => readDocument(db, facetDoc(name)),

    userFiles: () => ({
      profile: readDocument(db, PROFILE_DOC) ?? "",
      memory: readDocument(db, MEMORY_DOC) ?? "",
    }),

    get(id) {
      const row = byId.get(id) as ItemRow | undefined;
      return row ? toItem(row) : null;
    },

    list(opts = {}) {
      const where: string[] = [];
      const args: unknown[] = [];
      if (opts.namespace !== undefined) where.push("namespace = ?") && args.push(opts.namespace);
      if (opts.kind !== undefined) where.push("kind = ?") && args.push(opts.kind);
      if (opts.thread !== undefined) where.push("thread = ?") && args.push(opts.thread);
      const clause = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
      const limit = Math.min(Math.max(opts.limit ?? 50, 1), 500);
      const offset = Math.max(opts.offset ?? 0, 0);
      const total = (db.prepare(`SELECT count(*) AS n FROM items ${clause}`).get(...args) as { n: number }).n;
      const rows = db
        .prepare(`SELECT * FROM items ${clause} ORDER BY updated_at DESC, seq DESC LIMIT ? OFFSET ?`)
        .all(...args, limit, offset) as ItemRow[];
      return { items: rows.map(toItem), total };
    },

    namespaces: () =>
      db
        .prepare("SELECT namespace, count(*) AS items FROM items GROUP BY namespace ORDER BY namespace")
        .all() as Array<{
        namespace: string;
        items: number;
      }>,

    threads: (namespace) =>
      db
        .prepare(
          "SELECT thread, count(*) AS items, max(updated_at) AS updatedAt FROM items WHERE namespace = ? AND thread IS NOT NULL GROUP BY thread ORDER BY updatedAt DESC",
        )
        .all(namespace) as Array<{ thread: string; items: number; updatedAt: string }>,

    status() {
      const byKind: Record<MemoryKind, number> = { memory: 0, transcript: 0, person: 0, profile: 0 };
      for (const r of db.prepare("SELECT kind, count(*) AS n FROM items GROUP BY kind").all() as Array<{
        kind: MemoryKind;
        n: number;
      }>) {
        byKind[r.kind] = r.n;
      }
      const pending = db.prepare("SELECT count(*) AS n FROM items WHERE embedder_id IS NULL").get() as {
        n: number;
      };
      return {
        items: Object.values(byKind).reduce((a, b) => a + b, 0),
        byKind,
        embedderId: embedder.id,
        vectorBackend: backend,
        pendingEmbeddings: pending.n,
      };
    },
  };
  return Object.freeze(reader);
}
