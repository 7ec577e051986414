"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTRPC } from "@/trpc/client";
import { pinMany, pinnableItems } from "./pin-ops";
import { useEditor } from "./store";
import type { PinnedItem } from "@switchyard/contracts";

/**
 * `/flows/<id>?pinRun=<runId>` (the runs page's "Open in editor with this data"): once the flow and the
 * catalogue are loaded, pins every succeeded step's output of that run as one undoable edit, then drops
 * the parameter so a reload does not pin again.
 */
export function usePinRun(flowId: string, ready: boolean) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const done = useRef<string | null>(null);

  useEffect(() => {
    if (!ready) return;
    const params = new URLSearchParams(window.location.search);
    const runId = params.get("pinRun");
    if (!runId || done.current === runId) return;
    done.current = runId;
    (async () => {
      const run = await queryClient.fetchQuery(trpc.run.get.queryOptions({ id: runId }));
      if (run.flowId !== flowId) throw new Error(`run ${runId} belongs to another flow`);
      // The last succeeded attempt of each node (loops and retries record several rows).
      const latest = new Map<string, string>();
      for (const step of run.steps) if (step.status === "succeeded") latest.set(step.nodeId, step.id);
      const s = useEditor.getState();
      const pins: Record<string, PinnedItem[]> = {};
      let skipped = 0;
      for (const [nodeId, stepRowId] of latest) {
        const node = s.doc.nodes.find((n) => n.id === nodeId);
        if (!node) continue;
        const full = await queryClient.fetchQuery(trpc.run.step.queryOptions({ runId, stepRowId }));
        const port = s.catalogue.get(node.type)?.ports[0] ?? "main";
        const items = pinnableItems(full.output ? JSON.parse(full.output) : null, port);
        if (items) pins[nodeId] = items;
        else skipped++;
      }
      // Started once per run id (also under strict-mode effect replays); applies only to the same flow.
      if (useEditor.getState().flowId !== flowId) return;
      const st = useEditor.getState();
      st.edit((doc) => pinMany(doc, pins));
      const note = skipped ? ` (${skipped} truncated output(s) left unpinned)` : "";
      st.notify("info", `Pinned data from run ${runId}: ${Object.keys(pins).length} node(s)${note}.`);
      params.delete("pinRun");
      const query = params.toString();
      window.history.replaceState(
        window.history.state,
        "",
        `${window.location.pathname}${query ? `?${query}` : ""}`,
      );
    })().catch((err: unknown) => {
      useEditor.getState().notify("error", `Could not pin data from run ${runId}: ${(err as Error).message}`);
    });
  }, [ready, flowId, trpc, queryClient]);
}
