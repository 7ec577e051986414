import { itemInput, type MemoryItem, SEARCH_MODES } from "@switchyard/memory";
import { z } from "zod";
import { queryInt } from "../rest/params";
import { memoryItem } from "../rest/schemas";
import { auditedEditorProcedure, router, viewerProcedure } from "../trpc";

const tags = ["Memory"];

const itemView = (i: MemoryItem): z.input<typeof memoryItem> => i;

const searchResult = z
  .object({
    hits: z.array(
      z.object({
        item: memoryItem,
        score: z.number().describe("0..1"),
        lexicalRank: z.int().optional(),
        semanticRank: z.int().optional(),
      }),
    ),
  })
  .meta({ id: "MemorySearchResult" });

/** `/api/v1/memory…`: search, and people's ingest path (agents only ever get read-only memory tools). */
export const memoryApiRouter = router({
  search: viewerProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/memory/search",
        operationId: "searchMemory",
        tags,
        summary: "Search memory",
        description:
          "Hybrid (lexical + semantic) search in one namespace, best first. Scores are comparable within one answer.",
      },
    })
    .input(
      z.strictObject({
        q: z.string().trim().min(1, "q cannot be empty").max(2000).describe("What to look for"),
        namespace: z.string().trim().min(1).max(200).default("global"),
        mode: z.enum(SEARCH_MODES).default("balanced"),
        limit: queryInt(1, 100).optional().describe("Most hits to return (default 10)"),
      }),
    )
    .output(searchResult)
    .query(async ({ ctx, input }) => {
      const hits = await ctx.host.services.memory.reader.search(input.q, {
        namespace: input.namespace,
        mode: input.mode,
        limit: input.limit ?? 10,
      });
      return { hits: hits.map((h) => ({ ...h, item: itemView(h.item) })) };
    }),

  add: auditedEditorProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/memory/items",
        operationId: "addMemoryItem",
        tags,
        summary: "Add a memory item",
        description:
          "People's write path into memory (ingest). Re-adding an item with the same namespace and `source` updates it in place. " +
          "Agents never reach this: they only get the read-only memory tools.",
      },
      rest: { status: 201, audit: "memory.item.added" },
    })
    .input(itemInput.strict().meta({ id: "NewMemoryItem" }))
    .output(memoryItem)
    .mutation(async ({ ctx, input }) => itemView(await ctx.host.services.memory.ingest.add(input))),
});
