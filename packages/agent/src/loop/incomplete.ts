/**
 * The `[SUBAGENT_INCOMPLETE]` hand-back (spec/AGENTS.md §5): what a parent receives instead of an
 * answer when a child hit its iteration limit, timed out, failed or was cancelled. It names the
 * session, the agent and the reason, and carries the child's partial output, capped, so the parent
 * can report honestly what was done and what is missing rather than treat a wrap-up as an answer.
 */
import { capChars } from "@switchyard/contracts/cap";

export type IncompleteReason = "iteration_limit" | "timeout" | "failed" | "cancelled";

/** Partial output carried in the envelope, marker included (the child's max_result_chars may be lower). */
export const INCOMPLETE_PARTIAL_MAX_CHARS = 2000;

export const SUBAGENT_INCOMPLETE_OPEN = "[SUBAGENT_INCOMPLETE]";
export const SUBAGENT_INCOMPLETE_CLOSE = "[/SUBAGENT_INCOMPLETE]";

export interface IncompleteHandBack {
  sessionId: string;
  agentId: string;
  reason: IncompleteReason;
  /** One sentence: what stopped the child (the limit, the timeout message, the error). */
  detail: string;
  /** The child's last words: its wrap-up answer, or the last text it produced before it stopped. */
  partial: string;
}

/**
 * ```
 * [SUBAGENT_INCOMPLETE]
 * session: sa-2
 * agent: researcher
 * reason: iteration_limit — stopped at its iteration limit (3) before a final answer
 * partial output:
 * <up to 2000 characters, or "(none)">
 * [/SUBAGENT_INCOMPLETE]
 * ```
 */
export function renderIncomplete(h: IncompleteHandBack): string {
  const partial = h.partial.trim() === "" ? "(none)" : capChars(h.partial, INCOMPLETE_PARTIAL_MAX_CHARS).text;
  return [
    SUBAGENT_INCOMPLETE_OPEN,
    `session: ${h.sessionId}`,
    `agent: ${h.agentId}`,
    `reason: ${h.reason} — ${oneLine(h.detail)}`,
    "partial output:",
    partial,
    SUBAGENT_INCOMPLETE_CLOSE,
  ].join("\n");
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
