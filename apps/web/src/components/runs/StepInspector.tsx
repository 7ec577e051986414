"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { ErrorBox } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { AgentTrace } from "./agent-trace/AgentTrace";
import { JsonViewer } from "./JsonViewer";
import { StatusBadge } from "./status";
import { formatMs } from "./trace-model";

function parse(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

const kib = (chars: number) => (chars > 10_240 ? ` · ${(chars / 1024).toFixed(0)} KiB` : "");

/** What an agent step reported about its run (turn traces, when stored, are listed below it). */
function AgentSummary({ json }: { json: Record<string, unknown> }) {
  const usage = json.usage as { promptTokens?: number; completionTokens?: number } | undefined;
  return (
    <div
      data-testid="agent-turn"
      className="rounded-md border border-violet-200 bg-violet-50 p-2 text-xs dark:border-violet-900 dark:bg-violet-950"
    >
      <span className="font-medium">Agent {String(json.agent_ref)}</span> · stopped: {String(json.stop)}
      {usage ? ` · ${usage.promptTokens ?? 0} prompt + ${usage.completionTokens ?? 0} completion tokens` : ""}
    </div>
  );
}

interface StepExtras {
  logs?: { level: string; message: string; data?: unknown; at: string }[];
  agentTurns?: unknown[];
}

const levelTone: Record<string, string> = {
  error: "text-red-700 dark:text-red-300",
  warn: "text-amber-700 dark:text-amber-300",
};

/** Log lines the node wrote and the agent turns it ran, as the step store kept them with the step. */
function Extras({ extras }: { extras: StepExtras }) {
  return (
    <>
      {extras.logs?.length ? (
        <div
          data-testid="step-logs"
          className="rounded-md border border-slate-200 p-2 font-mono text-[11px] dark:border-slate-700"
        >
          {extras.logs.map((l, i) => (
            <div key={`${l.at}-${i}`} className={levelTone[l.level] ?? ""}>
              <span className="text-slate-400">{new Date(l.at).toLocaleTimeString()}</span> {l.level}{" "}
              {l.message}
              {l.data !== undefined ? (
                <span className="text-slate-500"> {JSON.stringify(l.data).slice(0, 300)}</span>
              ) : null}
            </div>
          ))}
        </div>
      ) : null}
      {extras.agentTurns?.length ? <AgentTrace turns={extras.agentTurns} /> : null}
    </>
  );
}

/** Everything one step attempt saw and produced: input items, outputs per port, error. */
export function StepInspector({
  runId,
  stepRowId,
  nodeName,
  nodeType,
}: {
  runId: string;
  stepRowId: string;
  nodeName: string;
  nodeType?: string;
}) {
  const trpc = useTRPC();
  const step = useQuery(
    trpc.run.step.queryOptions({ runId, stepRowId }, { staleTime: Number.POSITIVE_INFINITY }),
  );
  const input = useMemo(() => parse(step.data?.input ?? null), [step.data?.input]);
  const outputs = useMemo(() => parse(step.data?.output ?? null), [step.data?.output]);
  const extras = useMemo(() => parse(step.data?.logs ?? null) as StepExtras | null, [step.data?.logs]);
  if (step.error) return <ErrorBox message={step.error.message} />;
  if (!step.data) return <p className="text-sm text-slate-500">Loading step…</p>;
  const s = step.data;
  const ports =
    outputs && typeof outputs === "object" && !Array.isArray(outputs) && !("__truncated" in outputs)
      ? Object.entries(outputs as Record<string, unknown[]>)
      : null;
  const agentJson =
    nodeType === "agent" && ports
      ? ((ports.find(([p]) => p === "main")?.[1]?.[0] as { json?: Record<string, unknown> } | undefined)
          ?.json ?? null)
      : null;
  return (
    <div data-testid="step-inspector" data-node-id={s.nodeId} className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">{nodeName}</h3>
        <StatusBadge status={s.status} testId="inspector-status" />
        <span className="text-xs text-slate-500">
          {s.nodeId} · visit {s.visit} · attempt {s.attempt} · {formatMs(s.durationMs)}
          {s.port ? (
            <>
              {" "}
              · port taken:{" "}
              <span data-testid="port-taken" className="font-mono">
                {s.port}
              </span>
            </>
          ) : null}
        </span>
      </div>
      {s.reason === "pinned" ? (
        <p data-testid="step-pinned" className="text-xs text-violet-700 dark:text-violet-300">
          Pinned: not executed; the output is the flow's pinned data (editor runs only).
        </p>
      ) : s.reason === "reused" ? (
        <p data-testid="step-reused" className="text-xs text-violet-700 dark:text-violet-300">
          Reused: not executed again; the output comes from the run this one continues.
        </p>
      ) : s.reason ? (
        <p className="text-xs text-slate-500">
          Skipped:{" "}
          {s.reason === "no_input" ? "no input reached this node (branch not taken)" : "node disabled"}
        </p>
      ) : null}
      {s.retryAt ? (
        <p className="text-xs text-amber-700">Retried at {new Date(s.retryAt).toLocaleTimeString()}</p>
      ) : null}
      {s.errorCode ? (
        <div
          data-testid="step-error"
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          <span className="font-mono font-semibold">{s.errorCode}</span>:{" "}
          <span data-testid="step-error-message">{s.errorMessage}</span>
          {s.errorStack ? (
            <pre className="mt-2 max-h-48 overflow-auto whitespace-pre-wrap text-[11px]">{s.errorStack}</pre>
          ) : null}
        </div>
      ) : null}
      {s.truncated ? (
        <p className="text-xs text-amber-700">
          Part of this step's data was over 4 MiB and is stored truncated.
        </p>
      ) : null}
      {agentJson && "agent_ref" in agentJson ? <AgentSummary json={agentJson} /> : null}
      {extras && typeof extras === "object" ? <Extras extras={extras} /> : null}
      <JsonViewer
        testId="step-input"
        label={`Input · ${Array.isArray(input) ? `${input.length} item${input.length === 1 ? "" : "s"}` : "—"}${kib(s.input?.length ?? 0)}`}
        value={input}
      />
      {ports ? (
        ports.length === 0 ? (
          <p className="text-xs text-slate-500">No output.</p>
        ) : (
          ports.map(([port, items]) => (
            <JsonViewer
              key={port}
              testId={`step-output-${port}`}
              label={`Output · port ${port}${port === s.port ? " (taken)" : ""} · ${Array.isArray(items) && items.length === 1 ? "1 item" : `${Array.isArray(items) ? items.length : 0} items`}`}
              value={items}
            />
          ))
        )
      ) : (
        <JsonViewer testId="step-output" label={`Output${kib(s.output?.length ?? 0)}`} value={outputs} />
      )}
    </div>
  );
}
