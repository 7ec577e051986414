"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "@/trpc/client";
import { useEditor } from "./store";

/** The payload Run sends: the trigger's pinned sample (config.samplePayload), else an empty object. */
export function samplePayloadOf(): Record<string, unknown> {
  const s = useEditor.getState();
  const trigger = s.doc.nodes.find((n) => s.catalogue.get(n.type)?.kind === "trigger");
  const sample = trigger?.config.samplePayload;
  return sample && typeof sample === "object" && !Array.isArray(sample)
    ? (sample as Record<string, unknown>)
    : {};
}

/**
 * "Run" in the editor: saves unsaved work first (a run executes a saved version) and starts a manual run
 * with the trigger's sample payload. The run follower (use-run-follower) picks it up as the newest run,
 * colours the nodes and announces its end.
 */
export function useRunner(flowId: string, dirty: boolean, save: () => Promise<unknown>) {
  const trpc = useTRPC();
  const start = useMutation(trpc.flow.run.mutationOptions());
  const announced = useEditor((s) => s.announceRunId);

  const run = useCallback(async () => {
    if (dirty && !(await save())) return;
    const s = useEditor.getState();
    s.setNodeStatus({});
    try {
      const started = await start.mutateAsync({ id: flowId, payload: samplePayloadOf() });
      s.setAnnounceRunId(started.runId);
      s.notify("info", `Run ${started.runId} started.`);
    } catch (err) {
      s.notify("error", `Run refused: ${(err as Error).message}`);
    }
  }, [dirty, save, start, flowId]);

  return { run, running: start.isPending || announced !== null };
}
