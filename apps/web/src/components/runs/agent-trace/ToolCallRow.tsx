"use client";

import type { ReactNode } from "react";
import {
  argsPreview,
  decisionLabel,
  delegationMode,
  incompleteLabel,
  isRefused,
  type ToolCallTrace,
} from "./trace-view-model";

const outcomeTone: Record<ToolCallTrace["outcome"], string> = {
  executed: "border-slate-200 dark:border-slate-700",
  refused: "border-red-400 bg-red-50 dark:border-red-700 dark:bg-red-950",
  invalid_args: "border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950",
  error: "border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950",
};

/** One tool call: what the model asked for, what policy decided, and what came back or why not. */
export function ToolCallRow({
  call,
  childAgent,
  children,
}: {
  call: ToolCallTrace;
  childAgent?: string;
  /** The child turn this call started, drawn nested under it. */
  children?: ReactNode;
}) {
  const refused = isRefused(call);
  const mode = delegationMode(call);
  const incomplete = incompleteLabel(call);
  return (
    <li
      data-testid="tool-call"
      data-tool={call.name}
      data-outcome={call.outcome}
      className={`rounded-md border px-2 py-1.5 text-xs ${outcomeTone[call.outcome] ?? ""}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-[10px] uppercase tracking-wide text-slate-500">tool</span>
        <span className="font-mono font-semibold">{call.name}</span>
        <span
          data-testid="tool-decision"
          className={`rounded-full px-1.5 text-[10px] font-medium ${
            call.decision === "allow"
              ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200"
              : "bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200"
          }`}
        >
          {decisionLabel(call)}
        </span>
        {refused ? <span className="font-semibold text-red-700 dark:text-red-300">refused</span> : null}
        {childAgent ? (
          <span className="text-violet-700 dark:text-violet-300">hand-off to {childAgent}</span>
        ) : null}
        {call.automatic ? (
          <span data-testid="tool-automatic" className="text-slate-500">
            made by the runtime: background sub-agents ended
          </span>
        ) : null}
        {mode ? (
          <span data-testid="tool-subagent" className="font-mono text-violet-700 dark:text-violet-300">
            session {call.subagentSessionId} · {mode}
          </span>
        ) : null}
        {incomplete ? (
          <span
            data-testid="tool-incomplete"
            className="rounded-full bg-amber-100 px-1.5 text-[10px] font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100"
          >
            {incomplete}
          </span>
        ) : null}
        <span className="ml-auto text-slate-500">{call.latencyMs} ms</span>
      </div>
      <div
        className="mt-1 truncate font-mono text-[11px] text-slate-600 dark:text-slate-400"
        title={argsPreview(call.args, 5000)}
      >
        args: {argsPreview(call.args)}
      </div>
      {call.reason ? (
        <div data-testid="tool-refusal-reason" className="mt-1 font-medium text-red-800 dark:text-red-200">
          Why: {call.reason}
        </div>
      ) : null}
      {call.refusal ? (
        <div data-testid="tool-refusal" className="mt-1 text-red-800 dark:text-red-200">
          Told the model: {call.refusal}
        </div>
      ) : null}
      {call.error ? (
        <div data-testid="tool-error" className="mt-1 text-amber-800 dark:text-amber-200">
          {call.error}
        </div>
      ) : null}
      {call.result !== undefined ? (
        <details className="mt-1">
          <summary
            data-testid="tool-result"
            className="cursor-pointer truncate text-slate-700 dark:text-slate-300"
          >
            returned: {argsPreview(call.result, 160)}
          </summary>
          <pre className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap text-[11px]">{call.result}</pre>
        </details>
      ) : null}
      {children}
    </li>
  );
}
