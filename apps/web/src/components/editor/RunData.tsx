"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo } from "react";
import { JsonViewer } from "@/components/runs/JsonViewer";
import { StatusBadge } from "@/components/runs/status";
import { useTRPC } from "@/trpc/client";
import { useEditor } from "./store";

/** Step statuses after which the stored input and output no longer change. */
const SETTLED_STEP = new Set(["succeeded", "failed", "skipped", "cancelled", "timed_out"]);

function parse(json: string | null | undefined): unknown {
  if (json === null || json === undefined) return null;
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

const isTruncated = (v: unknown) => typeof v === "object" && v !== null && (v as { __truncated?: unknown }).__truncated === true;
const count = (v: unknown) => (Array.isArray(v) ? `${v.length} item${v.length === 1 ? "" : "s"}` : "—");

/** "Run succeeded · 14:02:11", linking to the run's trace; the newest run of the flow, whatever started it. */
export function LiveRunBadge() {
  const run = useEditor((s) => s.liveRun);
  if (!run) return null;
  return (
    <Link
      href={`/runs/${run.id}`}
      data-testid="live-run"
      data-status={run.status}
      title="Newest run of this flow: open its trace"
      className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-xs text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
    >
      Run <StatusBadge status={run.status} /> · {run.at ? new Date(run.at).toLocaleTimeString() : ""}
    </Link>
  );
}

/** The selected node's input and output items in the newest run, under its form in the config panel. */
export function NodeRunData({ nodeId }: { nodeId: string }) {
  const run = useEditor((s) => s.liveRun);
  const step = run?.steps[nodeId];
  const trpc = useTRPC();
  const settled = step ? SETTLED_STEP.has(step.status) : false;
  const full = useQuery(
    trpc.run.step.queryOptions(
      { runId: run?.id ?? "", stepRowId: step?.rowId ?? "" },
      // A settled step row never changes again, so it is fetched once per row.
      { enabled: Boolean(run && step && settled), staleTime: Number.POSITIVE_INFINITY },
    ),
  );
  const input = useMemo(() => parse(full.data?.input), [full.data?.input]);
  const output = useMemo(() => parse(full.data?.output), [full.data?.output]);
  if (!run) return null;

  const ports = output && typeof output === "object" && !Array.isArray(output) && !isTruncated(output) ? Object.entries(output as Record<string, unknown>) : null;
  return (
    <details open data-testid="node-run-data" className="rounded-lg border border-slate-200 dark:border-slate-800">
      <summary className="flex cursor-pointer items-center gap-2 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
        Last run data
        {step ? <StatusBadge status={step.status} testId="node-run-status" /> : null}
      </summary>
      <div className="space-y-2 px-3 pb-3">
        {!step ? (
          <p className="text-xs text-slate-500">This node did not run in run {run.id}.</p>
        ) : !settled ? (
          <p className="text-xs text-slate-500">Running…</p>
        ) : full.error ? (
          <p className="text-xs text-red-600">{full.error.message}</p>
        ) : !full.data ? (
          <p className="text-xs text-slate-500">Loading items…</p>
        ) : (
          <>
            {full.data.errorCode ? (
              <p role="alert" className="rounded-md bg-red-50 p-2 text-xs text-red-700 dark:bg-red-950 dark:text-red-300">
                <span className="font-mono font-semibold">{full.data.errorCode}</span>: {full.data.errorMessage}
              </p>
            ) : null}
            {step.truncated ? (
              <p data-testid="node-run-truncated" className="text-xs text-amber-700 dark:text-amber-400">
                Part of this step's data was too large and is stored truncated.
              </p>
            ) : null}
            <JsonViewer testId="node-run-input" label={`Input · ${count(input)}`} value={input} />
            {ports ? (
              ports.length === 0 ? (
                <p className="text-xs text-slate-500">No output.</p>
              ) : (
                ports.map(([port, items]) => (
                  <JsonViewer key={port} testId={`node-run-output-${port}`} label={`Output · ${port} · ${count(items)}`} value={items} />
                ))
              )
            ) : (
              <JsonViewer testId="node-run-output" label="Output" value={output} />
            )}
          </>
        )}
      </div>
    </details>
  );
}
