/**
 * The user-role run message of an agent node (spec/AGENTS.md §2): input-context block → JSON
 * instruction → prompt, joined by a blank line. The input context is untrusted data, fenced.
 */
import { capChars } from "@switchyard/contracts/cap";

export const INPUT_CONTEXT_MAX_BYTES = 50_000;
export const INPUT_TRUNCATION_MARK = "\n…(truncated)";
export const JSON_RESPONSE_INSTRUCTION =
  "Respond with a single JSON object only — no prose, no markdown code fences.";

export interface RunMessageInput {
  prompt: string;
  inputContext?: unknown;
  responseFormat?: { type: "text" } | { type: "json"; schema?: unknown };
  maxContextBytes?: number;
}

export function buildRunMessage(input: RunMessageInput): string {
  const parts: string[] = [];
  if (input.inputContext !== null && input.inputContext !== undefined) {
    parts.push(renderInputContext(input.inputContext, input.maxContextBytes ?? INPUT_CONTEXT_MAX_BYTES));
  }
  if (input.responseFormat?.type === "json") {
    const schema = input.responseFormat.schema;
    parts.push(
      schema === undefined
        ? JSON_RESPONSE_INSTRUCTION
        : `${JSON_RESPONSE_INSTRUCTION}\nThe object must match this JSON Schema:\n${stringify(schema)}`,
    );
  }
  parts.push(input.prompt);
  return parts.join("\n\n");
}

export function renderInputContext(data: unknown, maxBytes: number): string {
  const body = capChars(stringify(data), maxBytes, { unit: "utf8", marker: INPUT_TRUNCATION_MARK }).text;
  const fence = fenceFor(body);
  return [
    "Here is the data from the previous step:",
    `${fence}json\n${body}\n${fence}`,
    "Use this data to complete the task described below.",
  ].join("\n");
}

/** A backtick fence longer than any backtick run inside the data, so the data cannot close it. */
export function fenceFor(body: string): string {
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}

function stringify(data: unknown): string {
  try {
    const text = JSON.stringify(data, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2);
    return text ?? String(data);
  } catch {
    // Cycles and other unserialisable values still reach the agent, as their string form.
    return String(data);
  }
}
