"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo } from "react";
import { JsonViewer } from "@/components/runs/JsonViewer";
import { StatusBadge } from "@/components/runs/status";
import { useTRPC } from "@/trpc/client";
import { pinItems, pinnableItems, unpin } from "./pin-ops";
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

const isTruncated = (v: unknown) =>
  typeof v === "object" && v !== null && (v as { __truncated?: unknown }).__truncated === true;
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

  const ports =
    output && typeof output === "object" && !Array.isArray(output) && !isTruncated(output)
      ? Object.entries(output as Record<string, unknown>)
      : null;
  return (
    <details
      open
      data-testid="node-run-data"
      className="rounded-lg border border-slate-200 dark:border-slate-800"
    >
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
              <p
                role="alert"
                className="rounded-md bg-red-50 p-2 text-xs text-red-700 dark:bg-red-950 dark:text-red-300"
              >
                <span className="font-mono font-semibold">{full.data.errorCode}</span>:{" "}
                {full.data.errorMessage}
              </p>
            ) : null}
            {step.truncated ? (
              <p data-testid="node-run-truncated" className="text-xs text-amber-700 dark:text-amber-400">
                Part of this step's data was too large and is stored truncated.
              </p>
            ) : null}
            {step.status === "succeeded" ? <PinOutputButton nodeId={nodeId} output={output} /> : null}
            <JsonViewer testId="node-run-input" label={`Input · ${count(input)}`} value={input} />
            {ports ? (
              ports.length === 0 ? (
                <p className="text-xs text-slate-500">No output.</p>
              ) : (
                ports.map(([port, items]) => (
                  <JsonViewer
                    key={port}
                    testId={`node-run-output-${port}`}
                    label={`Output · ${port} · ${count(items)}`}
                    value={items}
                  />
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

/** "Pin output": keeps this run's items of the node's first output in the flow for later editor runs. */
function PinOutputButton({ nodeId, output }: { nodeId: string; output: unknown }) {
  const port = useEditor(
    (s) => s.catalogue.get(s.doc.nodes.find((n) => n.id === nodeId)?.type ?? "")?.ports[0] ?? "main",
  );
  const items = useMemo(() => pinnableItems(output, port), [output, port]);
  const pinned = useEditor((s) => s.doc.pinData?.[nodeId] !== undefined);
  if (!items)
    return <p className="text-xs text-slate-500">This output was stored truncated and cannot be pinned.</p>;
  return (
    <button
      type="button"
      data-testid="pin-output"
      title="Editor runs reuse these items instead of executing this node (saved with the flow)"
      className="rounded-md border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      onClick={() => {
        const s = useEditor.getState();
        s.edit((doc) => pinItems(doc, nodeId, items));
        s.notify("info", `Pinned ${count(items)} of “${nodeId}”: editor runs reuse them until you unpin.`);
      }}
    >
      {pinned ? "Pin this output instead" : `Pin output (${count(items)})`}
    </button>
  );
}

/** Shown on a pinned node's panel: what is pinned, and Unpin. */
export function PinnedData({ nodeId }: { nodeId: string }) {
  const items = useEditor((s) => s.doc.pinData?.[nodeId]);
  if (!items) return null;
  return (
    <div
      data-testid="pinned-data"
      className="space-y-2 rounded-lg border border-violet-300 bg-violet-50 p-3 dark:border-violet-800 dark:bg-violet-950"
    >
      <div className="flex items-center gap-2 text-xs">
        <span className="font-semibold text-violet-800 dark:text-violet-200">
          📌 Output pinned · {count(items)}
        </span>
        <span className="flex-1 text-violet-700 dark:text-violet-300">
          Runs from the editor skip this node and use these items.
        </span>
        <button
          type="button"
          data-testid="unpin-output"
          className="rounded-md border border-violet-300 px-2 py-1 hover:bg-violet-100 dark:border-violet-700 dark:hover:bg-violet-900"
          onClick={() => useEditor.getState().edit((doc) => unpin(doc, nodeId))}
        >
          Unpin
        </button>
      </div>
      <JsonViewer testId="pinned-items" label={`Pinned · ${count(items)}`} value={items} />
    </div>
  );
}
