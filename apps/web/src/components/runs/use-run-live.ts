"use client";

import { useEffect, useRef, useState } from "react";
import type { LiveFinished, LiveStart } from "./trace-model";

export type LiveMode = "idle" | "sse" | "polling";

type StepEvent = ({ type: "step.started" } & LiveStart) | { type: "step.finished"; step: LiveFinished };
type Key = { nodeId: string; visit: number; attempt: number };
const same = (a: Key) => (b: Key) => a.nodeId === b.nodeId && a.visit === b.visit && a.attempt === b.attempt;

/**
 * Follows a running run over SSE: steps that started come back as `live`, steps that finished as
 * `finished` (the store may write them later), and `onChange` fires whenever the trace moved, so the
 * caller refetches it. When the stream fails the mode becomes "polling" and the caller polls instead.
 */
export function useRunLive(
  runId: string,
  active: boolean,
  onChange: () => void,
): { live: LiveStart[]; finished: LiveFinished[]; mode: LiveMode } {
  const [live, setLive] = useState<LiveStart[]>([]);
  const [finished, setFinished] = useState<LiveFinished[]>([]);
  const [mode, setMode] = useState<LiveMode>("idle");
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    if (!active) {
      setLive([]);
      setFinished([]);
      setMode("idle");
      return;
    }
    if (typeof EventSource === "undefined") {
      setMode("polling");
      return;
    }
    let done = false;
    const es = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
    setMode("sse");
    // Whatever happened between the page's fetch and the subscription is in the store: read it once more.
    es.addEventListener("hello", () => changed.current());
    es.addEventListener("snapshot", (m) => {
      const snap = JSON.parse((m as MessageEvent<string>).data) as {
        started: LiveStart[];
        finished: LiveFinished[];
      };
      setLive(snap.started);
      setFinished(snap.finished);
    });
    es.addEventListener("step", (m) => {
      const e = JSON.parse((m as MessageEvent<string>).data) as StepEvent;
      if (e.type === "step.started") {
        const start = { nodeId: e.nodeId, visit: e.visit, attempt: e.attempt, at: e.at };
        setLive((prev) => [...prev.filter((l) => !same(start)(l)), start]);
      } else {
        setLive((prev) => prev.filter((l) => !same(e.step)(l)));
        setFinished((prev) => [...prev, e.step]);
        changed.current();
      }
    });
    es.addEventListener("finished", () => {
      done = true;
      es.close();
      setLive([]);
      setMode("idle");
      changed.current();
    });
    es.onerror = () => {
      // The browser would retry by itself; polling is more predictable once the stream broke.
      if (done) return;
      es.close();
      setMode("polling");
      changed.current();
    };
    return () => es.close();
  }, [runId, active]);

  return { live, finished, mode };
}
