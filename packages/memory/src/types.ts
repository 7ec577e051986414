import { z } from "zod";

export const MEMORY_KINDS = ["memory", "transcript", "person", "profile"] as const;
export const memoryKind = z.enum(MEMORY_KINDS);
export type MemoryKind = z.infer<typeof memoryKind>;

export const DEFAULT_NAMESPACE = "global";

const nonEmpty = (field: string) =>
  z
    .string({ error: `${field} cannot be empty` })
    .trim()
    .min(1, { error: `${field} cannot be empty` });

/** What a person (UI, CLI, tRPC) submits to create an item. */
export const itemInput = z.object({
  namespace: nonEmpty("namespace").default(DEFAULT_NAMESPACE),
  kind: memoryKind.default("memory"),
  key: nonEmpty("key"),
  content: z.string({ error: "content must be a string" }),
  thread: z.string().trim().min(1).optional(),
  tags: z.array(z.string().trim().min(1)).default([]),
  /** Where the item came from (file path + anchor); re-importing the same source updates in place. */
  source: z.string().min(1).optional(),
});
export type ItemInput = z.input<typeof itemInput>;
export type ParsedItemInput = z.output<typeof itemInput>;

/** Fields a person may change on an existing item. */
export const itemPatch = z.object({
  namespace: nonEmpty("namespace").optional(),
  kind: memoryKind.optional(),
  key: nonEmpty("key").optional(),
  content: z.string().optional(),
  thread: z.string().trim().min(1).nullable().optional(),
  tags: z.array(z.string().trim().min(1)).optional(),
});
export type ItemPatch = z.input<typeof itemPatch>;

export interface MemoryItem {
  id: string;
  namespace: string;
  kind: MemoryKind;
  key: string;
  content: string;
  thread: string | null;
  tags: string[];
  source: string | null;
  /** Embedder id that produced this row's vector; null while the row waits for (re-)embedding. */
  embedderId: string | null;
  createdAt: string;
  updatedAt: string;
}

export const SEARCH_MODES = ["balanced", "semantic", "lexical"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface SearchHit {
  item: MemoryItem;
  /** 0..1, comparable within one result list (see README for what it means per mode). */
  score: number;
  lexicalRank?: number;
  semanticRank?: number;
}

/** Progress of a long import or re-embedding: `done` of `total` units. */
export type ProgressFn = (done: number, total: number) => void;
