/** What one agent turn records (spec/AGENTS.md §6). Plain data, safe to serialise. */
import type { AgentTier } from "../definitions/schema";
import type { ChatMessage, TokenUsage, ToolCall } from "../llm/provider";
import type { ToolPolicyAction } from "../policy/permission";
import type { ToolPolicySnapshot } from "../policy/session";

export type TurnStop = "finished" | "limit_stop" | "error" | "aborted" | "timeout";

export interface LlmCallTrace {
  iteration: number;
  model: string;
  /** The messages sent on this call (the whole conversation so far). */
  messages: ChatMessage[];
  /** Tool names offered to the model on this call. */
  tools: string[];
  response?: { content: string | null; toolCalls: ToolCall[]; finishReason: string };
  usage?: TokenUsage;
  latencyMs: number;
  error?: string;
}

export interface ToolCallTrace {
  iteration: number;
  id: string;
  name: string;
  /** Parsed arguments, or the raw text when it was not valid JSON. */
  args: unknown;
  /** `unknown` = not a tool of this session (refused, fail closed). */
  decision: ToolPolicyAction | "unknown";
  outcome: "executed" | "refused" | "invalid_args" | "error";
  result?: string;
  refusal?: string;
  /** Why a refused call was refused: the policy's reason (e.g. "requires write, channel ceiling is read_only"). */
  reason?: string;
  error?: string;
  latencyMs: number;
  /** Set on delegate calls (and continue_subagent): the child turn's id. */
  childTurnId?: string;
  /** Set on delegate calls: the sub-agent session the child runs in. */
  subagentSessionId?: string;
  /** Made by the runtime, not the model: background sub-agents' results handed over as they end. */
  automatic?: boolean;
  /** Set when the child's result was a `[SUBAGENT_INCOMPLETE]` hand-back, with its reason. */
  incomplete?: "iteration_limit" | "timeout" | "failed" | "cancelled";
}

export interface AgentTurnTrace {
  turnId: string;
  parentTurnId?: string;
  /** A delegated turn: the parent's sub-agent session it ran in (a continued session has several turns). */
  subagentSessionId?: string;
  depth: number;
  agentId: string;
  agentTier: AgentTier;
  versionHash: string;
  mode: "llm" | "retrieval_only";
  provider: string | null;
  model: string | null;
  policy: ToolPolicySnapshot;
  llmCalls: LlmCallTrace[];
  toolCalls: ToolCallTrace[];
  /** `limit_stop` means the loop used all `maxIterations` and the answer is the forced wrap-up. */
  stop: TurnStop;
  /** The iteration limit this turn ran under (the definition's, raised by `iteration_policy`). */
  maxIterations: number;
  error?: string;
  /** Set when max_result_chars cut the final text. */
  truncation: { limit: number; originalLength: number } | null;
  usage: TokenUsage;
  durationMs: number;
}

export type TraceSink = (trace: AgentTurnTrace) => void;

/** Replaces every occurrence of each secret in every string of the trace (defence in depth). */
export function redactTrace<T>(value: T, secrets: readonly string[]): T {
  const active = secrets.filter((s) => s.length >= 4);
  if (active.length === 0) return value;
  const scrub = (v: unknown): unknown => {
    if (typeof v === "string") return active.reduce((s, secret) => s.split(secret).join("[redacted]"), v);
    if (Array.isArray(v)) return v.map(scrub);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]));
    return v;
  };
  return scrub(value) as T;
}
