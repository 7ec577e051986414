"use client";

import { LlmCallRow } from "./LlmCallRow";
import { ToolCallRow } from "./ToolCallRow";
import { childPlacement, refusedCalls, stopReason, timeline, type TurnNode } from "./trace-view-model";

const stopTone = {
  ok: "text-emerald-700 dark:text-emerald-300",
  warn: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100",
  error: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100",
};

function ToolList({ label, names, testId }: { label: string; names: string[]; testId: string }) {
  return (
    <span data-testid={testId}>
      {label}: {names.length ? names.join(", ") : "none"}
    </span>
  );
}

/** One agent turn: who ran under which policy, each step in order, why it stopped, and its hand-offs. */
export function TurnCard({ node }: { node: TurnNode }) {
  const { turn } = node;
  const stop = stopReason(turn);
  const refused = refusedCalls(turn);
  const childAgents = new Map(node.children.map((c) => [c.turn.turnId, c.turn.agentId]));
  const { byCall, unlinked } = childPlacement(node);
  return (
    <section
      data-testid="agent-turn-card"
      data-agent-id={turn.agentId}
      data-stop={turn.stop}
      data-session-id={turn.subagentSessionId}
      aria-label={`Agent ${turn.agentId}`}
      className="space-y-2 rounded-lg border border-violet-200 bg-white p-3 dark:border-violet-900 dark:bg-slate-900"
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        <span className="text-sm font-semibold">{turn.agentId}</span>
        {turn.subagentSessionId ? (
          <span data-testid="turn-session" className="font-mono text-violet-700 dark:text-violet-300">
            session {turn.subagentSessionId}
          </span>
        ) : null}
        <span className="rounded bg-violet-100 px-1.5 text-violet-800 dark:bg-violet-900 dark:text-violet-200">
          {turn.agentTier ?? "agent"}
        </span>
        <span className="font-mono text-slate-600 dark:text-slate-400">
          {turn.mode === "retrieval_only" ? "retrieval-only (no model)" : (turn.model ?? "no model")}
        </span>
        <span className="text-slate-500">
          {turn.usage.promptTokens} + {turn.usage.completionTokens} tokens · {turn.durationMs} ms
        </span>
        {refused.length ? (
          <span data-testid="refused-count" className="rounded-full bg-red-600 px-2 font-semibold text-white">
            {refused.length} refused
          </span>
        ) : null}
      </header>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-[11px] text-slate-600 dark:text-slate-400">
        <span data-testid="turn-ceiling">
          channel {turn.policy.channel}: up to {turn.policy.allowedPermission}
          {turn.policy.networkAllowed ? ", network allowed" : ", no network"}
        </span>
        <ToolList label="allowed" names={turn.policy.allowed} testId="policy-allowed" />
        <ToolList label="hidden" names={turn.policy.hidden} testId="policy-hidden" />
        <ToolList label="denied" names={turn.policy.denied} testId="policy-denied" />
      </div>
      <ol className="space-y-1.5">
        {timeline(turn).map((e, i) =>
          e.kind === "llm" ? (
            <LlmCallRow key={`llm-${e.call.iteration}-${i}`} call={e.call} />
          ) : (
            <ToolCallRow
              key={`tool-${e.call.id}-${i}`}
              call={e.call}
              childAgent={e.call.childTurnId ? childAgents.get(e.call.childTurnId) : undefined}
            >
              {e.call.childTurnId && byCall.has(e.call.childTurnId) ? (
                // The child's turn sits under the call that started it: the trace reads as a tree.
                <div
                  data-testid="spawned-turn"
                  className="mt-2 border-l-2 border-violet-200 pl-3 dark:border-violet-800"
                >
                  <TurnCard node={byCall.get(e.call.childTurnId)!} />
                </div>
              ) : null}
            </ToolCallRow>
          ),
        )}
      </ol>
      {turn.truncation ? (
        <p data-testid="turn-truncation" className="text-xs text-amber-800 dark:text-amber-200">
          Answer cut to {turn.truncation.limit.toLocaleString()} of{" "}
          {turn.truncation.originalLength.toLocaleString()} characters (max_result_chars).
        </p>
      ) : null}
      <p
        data-testid="turn-stop"
        className={`rounded-md text-xs font-medium ${stop.tone === "ok" ? stopTone.ok : `border px-2 py-1 ${stopTone[stop.tone]}`}`}
      >
        {stop.text}
      </p>
      {unlinked.length ? (
        <div
          data-testid="sub-agents"
          className="space-y-2 border-l-2 border-violet-200 pl-3 dark:border-violet-800"
        >
          {unlinked.map((child) => (
            <TurnCard key={child.turn.turnId} node={child} />
          ))}
        </div>
      ) : null}
    </section>
  );
}
