/**
 * The placeholder an importer puts where it met a node it cannot translate (an n8n node type
 * Switchyard has no equivalent for). It keeps the original parameters so nothing is lost, and
 * validation reports it as a problem, so a flow holding one saves as a draft but never activates.
 */
import { z } from "zod";

export const PLACEHOLDER_NODE_TYPE = "import.placeholder";

/** Most output (and input) ports a placeholder offers: n8n output index i maps to port `out<i>`. */
export const PLACEHOLDER_MAX_PORTS = 10;

/** `main` for index 0, then `out1`…`out9`, so a kept edge still names a real port. */
export const placeholderPort = (index: number) => (index === 0 ? "main" : `out${index}`);

export const placeholderConfig = z.object({
  source: z.string().min(1).max(50).describe('Where the node came from, e.g. "n8n"'),
  originalType: z.string().min(1).max(300).describe("The original node type, e.g. n8n-nodes-base.slack"),
  originalTypeVersion: z.number().optional().describe("The original node's type version"),
  reason: z.string().max(2000).describe("Why it could not be translated"),
  parameters: z.record(z.string(), z.unknown()).default({}).describe("The original parameters, untouched"),
  credentials: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The original credential references (names and ids only; no secrets are exported)"),
});
export type PlaceholderConfig = z.infer<typeof placeholderConfig>;

/** The problem validation reports for a placeholder: names the node and the original type. */
export function placeholderMessage(nodeId: string, config: { source?: unknown; originalType?: unknown }) {
  const source = typeof config.source === "string" ? config.source : "an import";
  const type = typeof config.originalType === "string" ? config.originalType : "an unknown type";
  return `node "${nodeId}" is a placeholder for the ${source} node type "${type}", which could not be imported: replace or remove it before activating`;
}
