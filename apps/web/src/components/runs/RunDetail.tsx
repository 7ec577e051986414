"use client";

import { isFinishedRunStatus } from "@switchyard/contracts/runs";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useState } from "react";
import { ErrorBox, PageHeader } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { RunActions } from "./RunActions";
import { type DefinitionShape, RunGraph } from "./RunGraph";
import { StatusBadge } from "./status";
import { StepInspector } from "./StepInspector";
import {
  formatMs,
  inferInFlight,
  isStoredStep,
  mergeLiveSteps,
  nodeTraces,
  statusOfNode,
  waterfall,
} from "./trace-model";
import { TriggerPayload } from "./TriggerPayload";
import { useRunLive } from "./use-run-live";
import { Waterfall } from "./Waterfall";

const section = "rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900";

/** The trace of one run: graph, waterfall, step inspector, payload and actions; live while it runs. */
export function RunDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const [polling, setPolling] = useState(false);
  const run = useQuery({ ...trpc.run.get.queryOptions({ id }), refetchInterval: polling ? 1_000 : false });
  const finished = run.data ? isFinishedRunStatus(run.data.status) : false;
  const refetch = run.refetch;
  const onChange = useCallback(() => void refetch(), [refetch]);
  const { live: streamed, finished: streamedSteps, mode } = useRunLive(id, !!run.data && !finished, onChange);
  useEffect(() => setPolling(mode === "polling" && !finished), [mode, finished]);

  const [selected, setSelected] = useState<string | null>(null);

  // Streamed steps fill in what the store has not written yet (it buffers pure steps during a run).
  const steps = useMemo(
    () => mergeLiveSteps(run.data?.steps ?? [], finished ? [] : streamedSteps),
    [run.data?.steps, streamedSteps, finished],
  );
  const definition = (run.data?.definition ?? {}) as DefinitionShape;
  const runStatus = run.data?.status ?? "queued";
  // Steps that started before the stream connected are inferred; streamed starts take precedence.
  const live = useMemo(() => {
    const inferred = inferInFlight(
      steps,
      definition.edges ?? [],
      runStatus,
      run.data?.startedAt ?? null,
    ).filter((i) => !streamed.some((l) => l.nodeId === i.nodeId));
    return [...streamed, ...inferred];
  }, [steps, definition.edges, runStatus, streamed, run.data?.startedAt]);
  const traces = useMemo(() => nodeTraces(steps, live, finished), [steps, live, finished]);
  const traceOf = useCallback((nodeId: string) => statusOfNode(traces, nodeId, finished), [traces, finished]);
  const portOf = useCallback(
    (nodeId: string) => steps.findLast((s) => s.nodeId === nodeId)?.port ?? null,
    [steps],
  );
  const nodesById = useMemo(() => new Map((definition.nodes ?? []).map((n) => [n.id, n])), [definition]);
  const nameOf = useCallback((nodeId: string) => nodesById.get(nodeId)?.name || nodeId, [nodesById]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (live.length === 0) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [live.length]);
  const wf = useMemo(
    () => waterfall(steps, live, run.data?.startedAt ?? null, now),
    [steps, live, run.data?.startedAt, now],
  );

  if (run.error) return <ErrorBox message={run.error.message} />;
  if (!run.data) return <p className="px-8 py-6 text-sm text-slate-500">Loading run…</p>;
  const r = run.data;
  const selectedStep = steps.find((s) => s.id === selected);
  return (
    <div>
      <PageHeader
        title={`${r.flow.name} · run`}
        description={`${r.id} · version ${r.flowVersion} · ${r.channel}`}
        actions={
          <Link href={`/runs?flowId=${r.flowId}`} className="text-sm text-brand-600 hover:underline">
            Runs of this flow
          </Link>
        }
      />
      <div className="space-y-4 px-8 py-6">
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <StatusBadge status={r.status} testId="run-status" />
          <span className="text-slate-500">
            started {r.startedAt ? new Date(r.startedAt).toLocaleString() : "—"} · duration{" "}
            {formatMs(r.durationMs)}
          </span>
          <span data-testid="live-mode" data-mode={mode} className="text-xs text-slate-400">
            {mode === "sse" ? "live" : mode === "polling" ? "live (polling)" : ""}
          </span>
          {r.rerunOf ? (
            <span data-testid="rerun-of" className="text-slate-500">
              {r.stepMode === "retry"
                ? `retry from ${r.stepNode} of `
                : r.stepMode === "node"
                  ? `ran ${r.stepNode} on the input of `
                  : "re-run of "}
              <Link className="text-brand-600 hover:underline" href={`/runs/${r.rerunOf}`}>
                {r.rerunOf}
              </Link>
            </span>
          ) : r.stepMode ? (
            <span data-testid="step-run" className="text-slate-500">
              {r.stepMode === "until" ? `ran up to ${r.stepNode}` : `ran only ${r.stepNode}`}
            </span>
          ) : null}
          {r.reruns.length ? (
            <span data-testid="reruns" className="text-slate-500">
              {r.reruns.some((x) => x.stepMode === "retry") ? "retried / re-run as " : "re-run as "}
              {r.reruns.map((x) => (
                <Link key={x.id} className="mr-1 text-brand-600 hover:underline" href={`/runs/${x.id}`}>
                  {x.id.slice(-8)}
                </Link>
              ))}
            </span>
          ) : null}
          <div className="ml-auto">
            <RunActions run={r} />
          </div>
        </div>
        {r.errorMessage ? (
          <div
            data-testid="run-error"
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
          >
            <span className="font-mono">{r.errorCode}</span>
            {r.errorNodeId ? ` at ${nameOf(r.errorNodeId)}` : ""}: {r.errorMessage}
          </div>
        ) : null}
        {r.definition ? (
          <RunGraph
            definition={definition}
            traceOf={traceOf}
            portOf={portOf}
            selectedNodeId={selectedStep?.nodeId ?? null}
            onSelectNode={(nodeId) => {
              const last = traces.get(nodeId)?.lastStepId;
              setSelected(last && isStoredStep(last) ? last : null);
            }}
          />
        ) : (
          <ErrorBox message={`Version ${r.flowVersion} of this flow is no longer stored.`} />
        )}
        <div className="grid gap-4 xl:grid-cols-2">
          <section aria-label="Timeline" className={section}>
            <h2 className="mb-2 text-sm font-semibold">Timeline</h2>
            <Waterfall
              bars={wf.bars}
              totalMs={wf.totalMs}
              nameOf={nameOf}
              selected={selected}
              onSelect={(b) => b.stepRowId && setSelected(b.stepRowId)}
            />
          </section>
          <section aria-label="Step" className={section}>
            {selectedStep ? (
              <StepInspector
                key={selectedStep.id}
                runId={r.id}
                stepRowId={selectedStep.id}
                nodeName={nameOf(selectedStep.nodeId)}
                nodeType={nodesById.get(selectedStep.nodeId)?.type}
              />
            ) : (
              <p className="text-sm text-slate-500">
                Select a node or a bar to inspect its input, output and error.
              </p>
            )}
          </section>
        </div>
        <section aria-label="Trigger payload" className={section}>
          <h2 className="mb-2 text-sm font-semibold">Trigger payload</h2>
          <TriggerPayload channel={r.channel} payload={r.payload} />
        </section>
      </div>
    </div>
  );
}
