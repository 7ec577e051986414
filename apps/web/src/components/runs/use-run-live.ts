"use client";

import { useEffect, useRef, useState } from "react";
import type { LiveStart } from "./trace-model";

export type LiveMode = "idle" | "sse" | "polling";

interface StepEvent {
  type: "step.started" | "step.finished";
  nodeId: string;
  visit: number;
  attempt: number;
  at: string;
}

/**
 * Follows a running run over SSE: steps that started (not yet checkpointed) come back as `live`, and
 * `onChange` fires whenever the stored trace moved, so the caller refetches it. When the stream fails
 * the mode becomes "polling" and the caller polls instead.
 */
export function useRunLive(
  runId: string,
  active: boolean,
  onChange: () => void,
): { live: LiveStart[]; mode: LiveMode } {
  const [live, setLive] = useState<LiveStart[]>([]);
  const [mode, setMode] = useState<LiveMode>("idle");
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    if (!active) {
      setLive([]);
      setMode("idle");
      return;
    }
    if (typeof EventSource === "undefined") {
      setMode("polling");
      return;
    }
    let finished = false;
    const es = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
    setMode("sse");
    // Whatever happened between the page's fetch and the subscription is in the store: read it once more.
    es.addEventListener("hello", () => changed.current());
    es.addEventListener("step", (m) => {
      const e = JSON.parse((m as MessageEvent<string>).data) as StepEvent;
      const same = (l: LiveStart) => l.nodeId === e.nodeId && l.visit === e.visit && l.attempt === e.attempt;
      if (e.type === "step.started")
        setLive((prev) => [
          ...prev.filter((l) => !same(l)),
          { nodeId: e.nodeId, visit: e.visit, attempt: e.attempt, at: e.at },
        ]);
      else {
        setLive((prev) => prev.filter((l) => !same(l)));
        changed.current();
      }
    });
    es.addEventListener("finished", () => {
      finished = true;
      es.close();
      setLive([]);
      setMode("idle");
      changed.current();
    });
    es.onerror = () => {
      // The browser would retry by itself; polling is more predictable once the stream broke.
      if (finished) return;
      es.close();
      setMode("polling");
      changed.current();
    };
    return () => es.close();
  }, [runId, active]);

  return { live, mode };
}
