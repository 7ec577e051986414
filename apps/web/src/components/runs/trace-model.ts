/**
 * Pure derivations for the trace view: node statuses from Step rows (plus live "started" events not yet
 * checkpointed), and waterfall bars. No React here, so it is tested directly.
 */

import type { LiveStart, LiveStep } from "@switchyard/runtime/trpc";

export type { LiveStart };

/** A stored step as the run page lists it: the live stream's finished-step shape plus its row and timing. */
export interface StepSummary extends Omit<LiveStep, "startedAt" | "endedAt"> {
  id: string;
  stepId: string;
  startedAt: string | Date | null;
  endedAt: string | Date | null;
  durationMs: number | null;
}

export type NodeTraceStatus =
  | "pending"
  | "running"
  | "retrying"
  | "waiting"
  | "succeeded"
  | "failed"
  | "skipped"
  | "not_run";

export interface NodeTrace {
  status: NodeTraceStatus;
  /** Attempts of the node's latest visit. */
  attempts: number;
  visits: number;
  /** The Step row to open when the node is clicked (its latest). */
  lastStepId?: string;
  errorMessage?: string;
}

const time = (v: string | Date | null | undefined) => (v == null ? Number.NaN : new Date(v).getTime());

function isLater(a: LiveStart, s: StepSummary | undefined): boolean {
  if (!s) return true;
  return a.visit > s.visit || (a.visit === s.visit && a.attempt > s.attempt);
}

/** Status per node id. `finished` runs show never-reached nodes as "not_run" instead of "pending". */
export function nodeTraces(
  steps: StepSummary[],
  live: LiveStart[],
  finished: boolean,
): Map<string, NodeTrace> {
  const latest = new Map<string, StepSummary>();
  for (const s of steps) latest.set(s.nodeId, s); // rows come in checkpoint order; the last one wins
  const out = new Map<string, NodeTrace>();
  for (const [nodeId, s] of latest) {
    const visits = Math.max(...steps.filter((x) => x.nodeId === nodeId).map((x) => x.visit));
    let status: NodeTraceStatus = s.status as NodeTraceStatus;
    // A failed attempt with a retry time is not the end of the node unless the run is over.
    if (s.status === "failed" && s.retryAt && !finished) status = "retrying";
    out.set(nodeId, {
      status,
      attempts: s.attempt,
      visits,
      lastStepId: s.id,
      errorMessage: s.errorMessage ?? undefined,
    });
  }
  if (!finished) {
    for (const l of live) {
      const t = out.get(l.nodeId);
      const last = latest.get(l.nodeId);
      if (isLater(l, last))
        out.set(l.nodeId, {
          ...(t ?? { visits: l.visit }),
          status: "running",
          attempts: l.attempt,
          visits: Math.max(t?.visits ?? 0, l.visit),
        });
    }
  }
  return out;
}

export function statusOfNode(traces: Map<string, NodeTrace>, nodeId: string, finished: boolean): NodeTrace {
  return traces.get(nodeId) ?? { status: finished ? "not_run" : "pending", attempts: 0, visits: 0 };
}

export interface WaterfallBar {
  key: string;
  /** Step row id; absent for a live step not yet checkpointed. */
  stepRowId?: string;
  nodeId: string;
  visit: number;
  attempt: number;
  status: string;
  offsetMs: number;
  durationMs: number;
}

/** One bar per Step row (so each retry attempt is its own bar) plus bars for steps running right now. */
export function waterfall(
  steps: StepSummary[],
  live: LiveStart[],
  runStart: string | Date | null,
  now: number,
): { bars: WaterfallBar[]; totalMs: number } {
  const starts = [
    time(runStart),
    ...steps.map((s) => time(s.startedAt)),
    ...live.map((l) => time(l.at)),
  ].filter(Number.isFinite);
  const origin = starts.length ? Math.min(...starts) : now;
  const bars: WaterfallBar[] = steps.map((s) => {
    const start = Number.isFinite(time(s.startedAt)) ? time(s.startedAt) : origin;
    const end = Number.isFinite(time(s.endedAt)) ? time(s.endedAt) : start + (s.durationMs ?? 0);
    return {
      key: s.id,
      stepRowId: isStoredStep(s.id) ? s.id : undefined,
      nodeId: s.nodeId,
      visit: s.visit,
      attempt: s.attempt,
      status: s.status,
      offsetMs: Math.max(0, start - origin),
      durationMs: Math.max(0, end - start),
    };
  });
  const done = new Set(steps.map((s) => `${s.nodeId}#${s.visit}#${s.attempt}`));
  for (const l of live) {
    if (done.has(`${l.nodeId}#${l.visit}#${l.attempt}`)) continue;
    const start = time(l.at);
    bars.push({
      key: `live:${l.nodeId}#${l.visit}#${l.attempt}`,
      nodeId: l.nodeId,
      visit: l.visit,
      attempt: l.attempt,
      status: "running",
      offsetMs: Math.max(0, start - origin),
      durationMs: Math.max(0, now - start),
    });
  }
  bars.sort((a, b) => a.offsetMs - b.offsetMs);
  const totalMs = Math.max(1, ...bars.map((b) => b.offsetMs + b.durationMs));
  return { bars, totalMs };
}

export function formatMs(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export interface EdgeShape {
  from: { node: string; port?: string };
  to: { node: string; port?: string };
}

/**
 * Steps already running when the page connected: the store only records finished steps, so the live
 * stream cannot replay their start. The engine starts a node as soon as every incoming edge is resolved
 * and one carries items; a node in that state without a record of its own is in flight (or waiting for
 * a free slot). Its start is taken as the latest end of its inputs.
 */
export function inferInFlight(
  steps: StepSummary[],
  edges: EdgeShape[],
  runStatus: string,
  runStart: string | Date | null = null,
): LiveStart[] {
  if (runStatus !== "running") return [];
  const latest = new Map<string, StepSummary>();
  for (const s of steps) latest.set(s.nodeId, s);
  const incoming = new Map<string, EdgeShape[]>();
  for (const e of edges) incoming.set(e.to.node, [...(incoming.get(e.to.node) ?? []), e]);
  // A running run's trigger is done even when its (buffered) checkpoint is not stored yet.
  for (const e of edges) {
    const root = e.from.node;
    if (!incoming.has(root) && !latest.has(root)) {
      latest.set(root, {
        ...emptyStep(root),
        status: "succeeded",
        port: "main",
        startedAt: runStart,
        endedAt: runStart,
      });
    }
  }
  const resolved = (s: StepSummary | undefined) =>
    !!s && (s.status === "succeeded" || s.status === "skipped" || (s.status === "failed" && !s.retryAt));
  const out: LiveStart[] = [];
  for (const [nodeId, ins] of incoming) {
    if (steps.some((s) => s.nodeId === nodeId)) continue;
    const sources = ins.map((e) => latest.get(e.from.node));
    if (!sources.every(resolved)) continue;
    const active = ins.some(
      (e, i) =>
        sources[i]!.status === "succeeded" && (sources[i]!.port ?? "main") === (e.from.port ?? "main"),
    );
    if (!active) continue;
    const at = Math.max(...sources.map((s) => time(s!.endedAt)).filter(Number.isFinite));
    out.push({
      nodeId,
      visit: 1,
      attempt: 1,
      at: new Date(Number.isFinite(at) ? at : Date.now()).toISOString(),
    });
  }
  return out;
}

function emptyStep(nodeId: string): StepSummary {
  return {
    id: `inferred:${nodeId}`,
    stepId: `${nodeId}#1`,
    nodeId,
    visit: 1,
    attempt: 1,
    status: "pending",
    port: null,
    reason: null,
    errorCode: null,
    errorMessage: null,
    retryAt: null,
    startedAt: null,
    endedAt: null,
    durationMs: null,
  };
}

/** A step the live stream reported finished, as a summary (no row id yet: the store may still buffer it). */
export type LiveFinished = LiveStep;

/** Stored steps plus streamed ones the store has not written yet, in time order after the stored ones. */
export function mergeLiveSteps(stored: StepSummary[], streamed: LiveFinished[]): StepSummary[] {
  const have = new Set(stored.map((s) => `${s.nodeId}#${s.visit}#${s.attempt}#${s.status}`));
  const extra = streamed
    .filter((l) => !have.has(`${l.nodeId}#${l.visit}#${l.attempt}#${l.status}`))
    .sort((a, b) => time(a.endedAt) - time(b.endedAt))
    .map((l) => ({
      ...l,
      id: `live:${l.nodeId}#${l.visit}#${l.attempt}`,
      stepId: `${l.nodeId}#${l.visit}`,
      durationMs: Math.max(0, time(l.endedAt) - time(l.startedAt)),
    }));
  return extra.length ? [...stored, ...extra] : stored;
}

/** Row ids of steps that exist in the store (only those can be opened in the inspector). */
export const isStoredStep = (id: string) => !id.startsWith("live:");
