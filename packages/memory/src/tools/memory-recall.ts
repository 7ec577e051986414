import { z } from "zod";
import type { MemoryReader } from "../read/reader";
import { DEFAULT_NAMESPACE } from "../types";
import { displayKey, percent, preview } from "./format";
import { defineMemoryTool, type MemoryTool } from "./tool";

const LIMIT_ERROR = "limit must be an integer between 1 and 50";
// Recall lists whole contents; this per-hit cap keeps five hits inside the 4000-char answer.
const RECALL_CONTENT_CHARS = 600;

export const memoryRecallInput = z.object({
  query: z
    .string({ error: "query cannot be empty" })
    .trim()
    .min(1, { error: "query cannot be empty" })
    .describe("What to remember, in natural language"),
  namespace: z
    .string({ error: "namespace cannot be empty" })
    .trim()
    .min(1, { error: "namespace cannot be empty" })
    .default(DEFAULT_NAMESPACE)
    .describe('Memory namespace, e.g. "global" or "flow_<flowId>"'),
  limit: z
    .number({ error: LIMIT_ERROR })
    .int({ error: LIMIT_ERROR })
    .min(1, { error: LIMIT_ERROR })
    .max(50, { error: LIMIT_ERROR })
    .default(5)
    .describe("Maximum number of memories (1-50)"),
});

export function memoryRecallTool(reader: MemoryReader): MemoryTool {
  return defineMemoryTool({
    name: "memory_recall",
    description:
      "Semantic recall over stored memories, transcripts, people and profile facts. Returns the closest items with their kind, key and similarity.",
    inputSchema: memoryRecallInput,
    async run({ query, namespace, limit }) {
      const hits = await reader.recall(query, { namespace, limit });
      if (hits.length === 0) return "No memories found matching that query.";
      const lines = hits.map(
        (h) =>
          `- [${h.item.kind}] ${displayKey(h.item)}: ${preview(h.item.content, RECALL_CONTENT_CHARS)} [${percent(h.score)}]`,
      );
      return `Found ${hits.length} memories:\n${lines.join("\n")}`;
    },
  });
}
