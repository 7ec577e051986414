"use client";

import type { LlmCallTrace } from "./trace-view-model";

type Message = LlmCallTrace["messages"][number];

function messageText(m: Message): string {
  if (m.role === "assistant" && m.toolCalls?.length)
    return `${m.content ?? ""}${m.content ? "\n" : ""}→ ${m.toolCalls.map((c) => c.name).join(", ")}`;
  return m.content ?? "";
}

/** One model call: model, tokens, latency and what it answered; the messages sent stay folded. */
export function LlmCallRow({ call }: { call: LlmCallTrace }) {
  const asked = call.response?.toolCalls.map((c) => c.name) ?? [];
  return (
    <li
      data-testid="llm-call"
      className={`rounded-md border px-2 py-1.5 text-xs ${
        call.error
          ? "border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950"
          : "border-sky-200 bg-sky-50/60 dark:border-sky-900 dark:bg-sky-950/40"
      }`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">Model call {call.iteration}</span>
        <span className="font-mono text-slate-600 dark:text-slate-400">{call.model}</span>
        {call.usage ? (
          <span data-testid="llm-tokens" className="text-slate-500">
            {call.usage.promptTokens} in · {call.usage.completionTokens} out tokens
          </span>
        ) : null}
        <span className="ml-auto text-slate-500">{call.latencyMs} ms</span>
      </div>
      {call.error ? <div className="mt-1 text-red-800 dark:text-red-200">{call.error}</div> : null}
      {call.response ? (
        <div className="mt-1 text-slate-700 dark:text-slate-300">
          {asked.length ? (
            <span>asked for {asked.join(", ")}</span>
          ) : (
            <span className="line-clamp-3 whitespace-pre-wrap">
              answered: {call.response.content ?? "(empty)"}
            </span>
          )}
          <span className="text-slate-500"> · finish: {call.response.finishReason}</span>
        </div>
      ) : null}
      <details className="mt-1">
        <summary className="cursor-pointer text-slate-500">
          {call.messages.length} message{call.messages.length === 1 ? "" : "s"} sent
          {call.tools.length ? ` · tools offered: ${call.tools.join(", ")}` : " · no tools offered"}
        </summary>
        <ol className="mt-1 space-y-1">
          {call.messages.map((m, i) => (
            <li key={i} className="rounded bg-white/70 p-1 dark:bg-slate-900/70">
              <span className="font-semibold">{m.role}</span>
              <pre className="max-h-40 overflow-auto whitespace-pre-wrap text-[11px]">{messageText(m)}</pre>
            </li>
          ))}
        </ol>
      </details>
    </li>
  );
}
