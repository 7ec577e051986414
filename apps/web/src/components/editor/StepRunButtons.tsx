"use client";

import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/client";
import { useEditorCommands } from "./editor-commands";
import { useEditor } from "./store";
import { samplePayloadOf } from "./use-runner";

const button =
  "rounded-md border border-slate-300 px-2.5 py-1 text-xs font-medium hover:bg-slate-50 disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800";

/**
 * "Run this node" (only it, on its pinned input or the last run's) and "Run up to here" (it and what it
 * depends on). Both save unsaved work first: a run executes a saved version. The run follower colours
 * the nodes and announces the end, as for Run.
 */
export function StepRunButtons({ nodeId }: { nodeId: string }) {
  const trpc = useTRPC();
  const { flowId, dirty, save } = useEditorCommands();
  const start = useMutation(trpc.flow.runStep.mutationOptions());
  const announced = useEditor((s) => s.announceRunId);
  const busy = start.isPending || announced !== null;

  const run = async (mode: "node" | "until") => {
    if (dirty && !(await save())) return;
    const s = useEditor.getState();
    try {
      const started = await start.mutateAsync({ id: flowId, nodeId, mode, payload: samplePayloadOf() });
      s.setNodeStatus({});
      s.setAnnounceRunId(started.runId);
      s.notify(
        "info",
        started.inputFrom
          ? `Run ${started.runId} started on the input from run ${started.inputFrom}.`
          : `Run ${started.runId} started.`,
      );
    } catch (err) {
      s.notify("error", `Run refused: ${(err as Error).message}`);
    }
  };

  return (
    <section aria-label="Run steps" className="flex flex-wrap items-center gap-2">
      <button type="button" className={button} disabled={busy} onClick={() => void run("node")}>
        Run this node
      </button>
      <button type="button" className={button} disabled={busy} onClick={() => void run("until")}>
        Run up to here
      </button>
    </section>
  );
}
