import type { RunProgressEvent } from "@switchyard/engine";
import type { EventBus } from "../events";

/** A finished step as the run page's live view needs it (no row id: the store may still buffer it). */
export interface LiveStep {
  nodeId: string;
  visit: number;
  attempt: number;
  status: string;
  port: string | null;
  reason: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  retryAt: string | null;
  startedAt: string;
  endedAt: string;
}

export interface LiveStart {
  nodeId: string;
  visit: number;
  attempt: number;
  at: string;
}

export function slimStep(e: Extract<RunProgressEvent, { type: "step.finished" }>): LiveStep {
  const s = e.step;
  return {
    nodeId: s.nodeId,
    visit: s.visit,
    attempt: s.attempt,
    status: s.status,
    port: s.port ?? null,
    reason: s.reason ?? null,
    errorCode: s.error?.code ?? null,
    errorMessage: s.error?.message ?? null,
    retryAt: s.retryAt ?? null,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
  };
}

interface RunLive {
  started: Map<string, LiveStart>;
  finished: LiveStep[];
}

const key = (s: { nodeId: string; visit: number; attempt: number }) => `${s.nodeId}#${s.visit}#${s.attempt}`;

/**
 * What each running run is doing right now, kept from the host's events. The step store buffers pure
 * steps until the next durable write, and never records a step that is still running, so a page that
 * connects mid-run gets this snapshot instead of waiting for the next event. Entries go when the run ends.
 */
function createTracker(events: EventBus) {
  const runs = new Map<string, RunLive>();
  const of = (runId: string) => {
    let r = runs.get(runId);
    if (!r) {
      r = { started: new Map(), finished: [] };
      runs.set(runId, r);
    }
    return r;
  };
  events.on("run.event", (e) => {
    if (e.type === "step.started")
      of(e.runId).started.set(key(e), { nodeId: e.nodeId, visit: e.visit, attempt: e.attempt, at: e.at });
    else if (e.type === "step.finished") {
      const r = of(e.runId);
      r.started.delete(key(e.step));
      r.finished.push(slimStep(e));
    }
  });
  events.on("run.finished", ({ runId }) => runs.delete(runId));
  return {
    snapshot(runId: string) {
      const r = runs.get(runId);
      return { started: r ? [...r.started.values()] : [], finished: r ? [...r.finished] : [] };
    },
  };
}

const trackers = new WeakMap<EventBus, ReturnType<typeof createTracker>>();

/** The tracker for this host's events, created on first use (it only knows runs from then on). */
export function liveSteps(events: EventBus) {
  let t = trackers.get(events);
  if (!t) {
    t = createTracker(events);
    trackers.set(events, t);
  }
  return t;
}
