import { itemInput, type MemoryItem, SEARCH_MODES } from "@switchyard/memory";
import { z } from "zod";
import { queryInt } from "../params";
import { defineRoute, named } from "../route";
import { memoryItem } from "../schemas";

const tag = "Memory";

const itemView = (i: MemoryItem): z.input<typeof memoryItem> => i;

export const memoryRoutes = [
  defineRoute({
    method: "GET",
    path: "/memory/search",
    operationId: "searchMemory",
    tag,
    summary: "Search memory",
    description:
      "Hybrid (lexical + semantic) search in one namespace, best first. Scores are comparable within one answer.",
    access: "read",
    query: z.object({
      q: z.string().trim().min(1, "q cannot be empty").max(2000).describe("What to look for"),
      namespace: z.string().trim().min(1).max(200).default("global"),
      mode: z.enum(SEARCH_MODES).default("balanced"),
      limit: queryInt(1, 100).optional().describe("Most hits to return (default 10)"),
    }),
    responses: {
      200: named(
        "MemorySearchResult",
        z.object({
          hits: z.array(
            z.object({
              item: memoryItem,
              score: z.number().describe("0..1"),
              lexicalRank: z.int().optional(),
              semanticRank: z.int().optional(),
            }),
          ),
        }),
      ),
    },
    async handler({ host, query }) {
      const hits = await host.services.memory.reader.search(query.q, {
        namespace: query.namespace,
        mode: query.mode,
        limit: query.limit ?? 10,
      });
      return { status: 200 as const, body: { hits: hits.map((h) => ({ ...h, item: itemView(h.item) })) } };
    },
  }),

  defineRoute({
    method: "POST",
    path: "/memory/items",
    operationId: "addMemoryItem",
    audit: "memory.item.added",
    tag,
    summary: "Add a memory item",
    description:
      "People's write path into memory (ingest). Re-adding an item with the same namespace and `source` updates it in place. " +
      "Agents never reach this: they only get the read-only memory tools.",
    access: "write",
    body: named("NewMemoryItem", itemInput.strict()),
    responses: { 201: memoryItem },
    async handler({ host, body }) {
      return { status: 201 as const, body: itemView(await host.services.memory.ingest.add(body)) };
    },
  }),
];
