/**
 * Pure derivations for the agent trace view, built on the trace types the agent package records
 * (types only: nothing of the agent runtime reaches the browser).
 */
import type { AgentTurnTrace, LlmCallTrace, ToolCallTrace } from "@switchyard/agent";

export type { AgentTurnTrace, LlmCallTrace, ToolCallTrace };

/** A turn with the turns it delegated to (sub-agent hand-offs), in the order they were recorded. */
export interface TurnNode {
  turn: AgentTurnTrace;
  children: TurnNode[];
}

/**
 * Stored traces are JSON from the step row; a trace written by an older version may lack fields, so
 * only values with the shape the view needs are drawn (the rest stay visible as raw JSON).
 */
export function isTurnTrace(v: unknown): v is AgentTurnTrace {
  if (!v || typeof v !== "object") return false;
  const t = v as Partial<AgentTurnTrace>;
  return (
    typeof t.turnId === "string" &&
    typeof t.agentId === "string" &&
    Array.isArray(t.llmCalls) &&
    Array.isArray(t.toolCalls) &&
    typeof t.stop === "string" &&
    !!t.policy &&
    typeof t.policy === "object"
  );
}

/** Turns arrive as each finishes (children before their parent); the tree follows parentTurnId. */
export function turnTree(turns: readonly AgentTurnTrace[]): TurnNode[] {
  const nodes = new Map(turns.map((turn) => [turn.turnId, { turn, children: [] as TurnNode[] }]));
  const roots: TurnNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.turn.parentTurnId ? nodes.get(node.turn.parentTurnId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/**
 * A turn's children split by where they belong: under the tool call that started them (a delegate
 * call or continue_subagent names its child turn), or — for traces without that link — after the turn.
 */
export function childPlacement(node: TurnNode): {
  byCall: Map<string, TurnNode>;
  unlinked: TurnNode[];
} {
  const linked = new Set(node.turn.toolCalls.map((c) => c.childTurnId).filter(Boolean));
  const byCall = new Map<string, TurnNode>();
  const unlinked: TurnNode[] = [];
  for (const child of node.children) {
    if (linked.has(child.turn.turnId)) byCall.set(child.turn.turnId, child);
    else unlinked.push(child);
  }
  return { byCall, unlinked };
}

/** How a delegation ran: waited for, or in the background (`blocking: false`, or a follow-up by default). */
export function delegationMode(call: ToolCallTrace): "background" | "waited" | null {
  if (!call.subagentSessionId) return null;
  const blocking = (call.args as { blocking?: unknown } | null)?.blocking;
  if (call.name === "continue_subagent") return blocking === true ? "waited" : "background";
  return blocking === false ? "background" : "waited";
}

const incompleteLabels: Record<NonNullable<ToolCallTrace["incomplete"]>, string> = {
  iteration_limit: "hit its iteration limit",
  timeout: "timed out",
  failed: "failed",
  cancelled: "was cancelled",
};

/** A delegate call whose child came back as [SUBAGENT_INCOMPLETE], in words. */
export function incompleteLabel(call: ToolCallTrace): string | null {
  return call.incomplete
    ? `incomplete: the sub-agent ${incompleteLabels[call.incomplete] ?? call.incomplete}`
    : null;
}

export type TimelineEntry =
  | { kind: "llm"; iteration: number; call: LlmCallTrace }
  | { kind: "tool"; iteration: number; call: ToolCallTrace };

/**
 * One turn as it happened: per iteration the model call, then the tool calls it asked for.
 * Iteration 0 is the memory context fetched before the first call.
 */
export function timeline(turn: AgentTurnTrace): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...turn.llmCalls.map((call) => ({ kind: "llm" as const, iteration: call.iteration, call })),
    ...turn.toolCalls.map((call) => ({ kind: "tool" as const, iteration: call.iteration, call })),
  ];
  // A stable sort keeps the recorded order inside each group.
  return entries.sort((a, b) => a.iteration - b.iteration || rank(a) - rank(b));
}
const rank = (e: TimelineEntry) => (e.kind === "llm" ? 0 : 1);

/** A call policy or the runtime did not run: refused by policy, over a cap, or not a tool at all. */
export function isRefused(call: ToolCallTrace): boolean {
  return call.outcome === "refused";
}

export function refusedCalls(turn: AgentTurnTrace): ToolCallTrace[] {
  return turn.toolCalls.filter(isRefused);
}

/** Why the turn stopped, in a sentence a person reads without knowing the codes. */
export function stopReason(turn: AgentTurnTrace): { tone: "ok" | "warn" | "error"; text: string } {
  switch (turn.stop) {
    case "finished":
      return { tone: "ok", text: "Finished: the model gave its final answer." };
    case "limit_stop": {
      const limit = typeof turn.maxIterations === "number" ? ` (${turn.maxIterations})` : "";
      return {
        tone: "warn",
        text: `Stopped at its iteration limit${limit}: the answer is a forced wrap-up without tools and may be incomplete.`,
      };
    }
    case "timeout":
      return { tone: "error", text: `Timed out${turn.error ? `: ${turn.error}` : "."}` };
    case "aborted":
      return { tone: "error", text: `Cancelled${turn.error ? `: ${turn.error}` : "."}` };
    default:
      return { tone: "error", text: `Failed${turn.error ? `: ${turn.error}` : "."}` };
  }
}

const decisionLabels: Record<ToolCallTrace["decision"], string> = {
  allow: "allowed",
  require_approval: "needs approval",
  deny: "denied",
  hide_from_prompt: "hidden",
  unknown: "not a tool of this agent",
};

export function decisionLabel(call: ToolCallTrace): string {
  return decisionLabels[call.decision] ?? call.decision;
}

/** Arguments as one line (what the model asked for), cut so a long prompt does not take the page. */
export function argsPreview(args: unknown, max = 200): string {
  const text = typeof args === "string" ? args : JSON.stringify(args);
  if (text === undefined) return "";
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
