"use client";

import { isFinishedRunStatus } from "@switchyard/contracts/runs";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/trpc/client";
import { type LiveRun, type LiveStep, useEditor } from "./store";
import type { NodeRunStatus } from "./types";

const POLL_MS = 1000;
const STEP_STATUS: Record<string, NodeRunStatus> = {
  queued: "pending",
  pending: "pending",
  running: "running",
  waiting: "waiting",
  succeeded: "succeeded",
  failed: "failed",
  skipped: "skipped",
  cancelled: "failed",
  timed_out: "failed",
};

interface TracedRun {
  id: string;
  status: string;
  createdAt: string | Date;
  startedAt: string | Date | null;
  endedAt: string | Date | null;
  steps: {
    id: string;
    nodeId: string;
    status: string;
    truncated: boolean;
    errorCode: string | null;
    errorMessage: string | null;
  }[];
}

const iso = (d: string | Date | null) => (d === null ? null : typeof d === "string" ? d : d.toISOString());

/** Latest step per node, in checkpoint order; the canvas colours and the config panel read this. */
export function toLiveRun(run: TracedRun): LiveRun {
  const steps: Record<string, LiveStep> = {};
  for (const st of run.steps) steps[st.nodeId] = { rowId: st.id, status: st.status, truncated: st.truncated };
  return {
    id: run.id,
    status: run.status,
    at: iso(run.endedAt) ?? iso(run.startedAt) ?? iso(run.createdAt) ?? "",
    steps,
  };
}

function announce(run: TracedRun) {
  const failed = run.steps.find((st) => st.status === "failed");
  const why = failed ? `: ${failed.nodeId}: ${failed.errorMessage ?? failed.errorCode ?? "failed"}` : ".";
  useEditor
    .getState()
    .notify(run.status === "succeeded" ? "info" : "error", `Run ${run.status.replace("_", " ")}${why}`);
}

/**
 * Follows the newest run of the flow while the editor is open, whatever started it (Run button, webhook,
 * mail, cron): polls run.list every second and traces that run until it has finished. Polling rather than
 * SSE because the run to follow changes under us; one tiny query a second is cheap.
 */
export function useRunFollower(flowId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The last run traced to its end needs no further run.get calls until a newer one appears.
    let settled: string | null = null;
    const tick = async () => {
      try {
        const page = await queryClient.fetchQuery({
          ...trpc.run.list.queryOptions({ flowId, limit: 1 }),
          staleTime: 0,
        });
        const newest = page.runs[0];
        if (newest && newest.id !== settled) {
          const run = (await queryClient.fetchQuery({
            ...trpc.run.get.queryOptions({ id: newest.id }),
            staleTime: 0,
          })) as unknown as TracedRun;
          if (stopped) return;
          const s = useEditor.getState();
          const live = toLiveRun(run);
          s.setLiveRun(live);
          s.setNodeStatus(
            Object.fromEntries(
              Object.entries(live.steps).map(([node, st]) => [node, STEP_STATUS[st.status] ?? "running"]),
            ),
          );
          if (isFinishedRunStatus(run.status)) {
            settled = run.id;
            if (s.announceRunId === run.id) {
              announce(run);
              s.setAnnounceRunId(null);
            }
          }
        }
      } catch {
        // A failed poll is retried on the next tick.
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [flowId, queryClient, trpc]);
}
