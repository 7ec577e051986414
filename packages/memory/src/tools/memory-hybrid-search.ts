import { z } from "zod";
import type { MemoryReader } from "../read/reader";
import { SEARCH_MODES } from "../types";
import { displayKey, preview } from "./format";
import { defineMemoryTool, type MemoryTool } from "./tool";

const LIMIT_ERROR = "limit must be an integer between 1 and 50";
const SNIPPET_CHARS = 200;

export const memoryHybridSearchInput = z.object({
  query: z
    .string({ error: "query cannot be empty" })
    .trim()
    .min(1, { error: "query cannot be empty" })
    .describe("Search text: exact terms, names or a description"),
  namespace: z
    .string({ error: "namespace cannot be empty" })
    .trim()
    .min(1, { error: "namespace cannot be empty" })
    .describe('Memory namespace, e.g. "global"'),
  mode: z
    .enum(SEARCH_MODES, {
      error: (issue) => `Unknown mode '${String(issue.input)}'. Valid modes: ${SEARCH_MODES.join(", ")}`,
    })
    .default("balanced")
    .describe("balanced (lexical + semantic fused), semantic, or lexical"),
  limit: z
    .number({ error: LIMIT_ERROR })
    .int({ error: LIMIT_ERROR })
    .min(1, { error: LIMIT_ERROR })
    .max(50, { error: LIMIT_ERROR })
    .default(10)
    .describe("Maximum number of results (1-50)"),
});

export function memoryHybridSearchTool(reader: MemoryReader): MemoryTool {
  return defineMemoryTool({
    name: "memory_hybrid_search",
    description:
      "Search memory by exact terms and meaning together (reciprocal rank fusion of full-text and vector search). Use mode=lexical for exact names or codes, mode=semantic for loose descriptions.",
    inputSchema: memoryHybridSearchInput,
    async run({ query, namespace, mode, limit }) {
      const hits = await reader.search(query, { namespace, mode, limit });
      const header = `Found ${hits.length} results (mode=${mode})`;
      if (hits.length === 0) return `${header}.`;
      // The score is relative (0..1): see the package README for what it means in each mode.
      const lines = hits.map(
        (h) =>
          `- (${h.score.toFixed(2)}) [${h.item.kind}] ${displayKey(h.item)}: ${preview(h.item.content, SNIPPET_CHARS)}`,
      );
      return `${header}:\n${lines.join("\n")}`;
    },
  });
}
