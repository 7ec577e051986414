"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/trpc/client";
import { useEditor } from "./store";
import type { NodeRunStatus } from "./types";

const POLL_MS = 500;
const FINISHED = new Set(["succeeded", "failed", "cancelled", "timed_out"]);
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

/**
 * "Run" in the editor: saves unsaved work first (a run executes a saved version), starts a manual run
 * with the trigger's sample payload and follows it (run.get every 500 ms), showing each node's status.
 */
export function useRunner(flowId: string, dirty: boolean, save: () => Promise<unknown>) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const start = useMutation(trpc.flow.run.mutationOptions());
  const [runId, setRunId] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (!runId) return;
    let stopped = false;
    const poll = async () => {
      try {
        const run = await queryClient.fetchQuery({ ...trpc.run.get.queryOptions({ id: runId }), staleTime: 0 });
        if (stopped) return;
        // Each node shows its latest step (attempts and loop visits come in checkpoint order).
        const status: Record<string, NodeRunStatus> = {};
        for (const step of run.steps) status[step.nodeId] = STEP_STATUS[step.status] ?? "running";
        useEditor.getState().setNodeStatus(status);
        if (FINISHED.has(run.status)) {
          const failed = run.steps.find((st) => st.status === "failed");
          const why = failed ? `: ${failed.nodeId}: ${failed.errorMessage ?? failed.errorCode ?? "failed"}` : ".";
          useEditor.getState().notify(run.status === "succeeded" ? "info" : "error", `Run ${run.status.replace("_", " ")}${why}`);
          setRunId(null);
          return;
        }
      } catch {
        // A failed poll is retried on the next tick.
      }
      if (!stopped) timer.current = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer.current);
    };
  }, [runId, flowId, queryClient, trpc]);

  const run = useCallback(async () => {
    if (dirty && !(await save())) return;
    const s = useEditor.getState();
    const trigger = s.doc.nodes.find((n) => s.catalogue.get(n.type)?.kind === "trigger");
    const sample = trigger?.config.samplePayload;
    s.setNodeStatus({});
    try {
      const started = await start.mutateAsync({ id: flowId, payload: sample && typeof sample === "object" ? sample : {} });
      s.notify("info", `Run ${started.runId} started.`);
      setRunId(started.runId);
    } catch (err) {
      s.notify("error", `Run refused: ${(err as Error).message}`);
    }
  }, [dirty, save, start, flowId]);

  return { run, running: start.isPending || runId !== null };
}
