/** The hand-off envelope a parent passes to a delegate tool, and its rendering (spec §5). */
import { z } from "zod";

export const CITATION_REQUIREMENTS = [
  "none",
  "file_paths",
  "urls",
  "retrieval_hits",
  "tool_outputs",
] as const;

export const handoffEnvelopeSchema = z.strictObject({
  prompt: z
    .string()
    .trim()
    .min(1)
    .describe("The whole sub-task, self-contained: the worker sees nothing else"),
  objective: z.string().optional().describe("What the result is for"),
  evidence: z
    .array(z.string())
    .optional()
    .describe("Only observed facts: ids, URLs, quoted data, tool outputs — never guesses"),
  constraints: z.array(z.string()).optional().describe("Limits the worker must respect"),
  must_not_assume: z.array(z.string()).optional().describe("Things the worker must not take for granted"),
  expected_output: z.string().optional().describe("Shape and length of the answer wanted back"),
  citation_requirement: z.enum(CITATION_REQUIREMENTS).optional().describe("How the worker must cite sources"),
  model: z.string().optional().describe("Model override for the worker (rarely needed)"),
  blocking: z.boolean().optional().describe("Wait for the result (always true inside a flow step)"),
});
export type HandoffEnvelope = z.infer<typeof handoffEnvelopeSchema>;

const LABELS: [keyof HandoffEnvelope, string][] = [
  ["objective", "Objective"],
  ["evidence", "Evidence"],
  ["constraints", "Constraints"],
  ["must_not_assume", "Must not assume"],
  ["expected_output", "Expected output"],
  ["citation_requirement", "Citation requirement"],
];

/** `Task:\n<prompt>` then `\n\n<Label>:\n<text or "- item" lines>` per non-empty field. */
export function renderHandoff(envelope: HandoffEnvelope): string {
  let out = `Task:\n${envelope.prompt}`;
  for (const [key, label] of LABELS) {
    const value = envelope[key];
    if (Array.isArray(value)) {
      const items = value.filter((v) => v.trim() !== "");
      if (items.length > 0) out += `\n\n${label}:\n${items.map((v) => `- ${v}`).join("\n")}`;
    } else if (typeof value === "string" && value.trim() !== "") {
      out += `\n\n${label}:\n${value}`;
    }
  }
  return out;
}
