"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { JsonViewer } from "@/components/runs/JsonViewer";
import { useTRPC } from "@/trpc/client";
import { updateNode } from "./doc-ops";
import { useEditorCommands } from "./editor-commands";
import { useEditor } from "./store";
import type { FlowNode } from "@switchyard/contracts";

const LISTEN_MS = 120_000;
const button =
  "rounded border border-amber-400 px-2 py-1 text-xs font-medium hover:bg-white disabled:opacity-50 dark:border-amber-700 dark:hover:bg-slate-800";

/**
 * "Listen for test event": the server binds /hooks-test/<path> until one request arrives and hands back
 * its payload, which can be pinned as the trigger's sample payload (config.samplePayload) that Run sends.
 */
export function ListenTest({ node, testUrl }: { node: FlowNode; testUrl: string }) {
  const trpc = useTRPC();
  const { flowId, dirty, save } = useEditorCommands();
  const listen = useMutation(trpc.flow.listenTest.mutationOptions());
  const [event, setEvent] = useState<{ payload: unknown } | null>(null);
  const pinned = node.config.samplePayload !== undefined;

  const start = async () => {
    setEvent(null);
    // The test URL serves the saved version: an unsaved path would listen on the old one.
    if (dirty && !(await save())) return;
    try {
      setEvent({ payload: await listen.mutateAsync({ id: flowId, timeoutMs: LISTEN_MS }) });
    } catch {
      // Shown from listen.error below.
    }
  };
  const pin = (payload: unknown) => {
    const s = useEditor.getState();
    s.edit((doc) =>
      updateNode(doc, node.id, (n) => ({ ...n, config: { ...n.config, samplePayload: payload } })),
    );
    s.notify("info", "Sample payload set: Run sends it (save to keep it).");
  };
  const unpin = () =>
    useEditor.getState().edit((doc) =>
      updateNode(doc, node.id, (n) => {
        const { samplePayload: _dropped, ...config } = n.config;
        return { ...n, config };
      }),
    );

  return (
    <div className="space-y-2 border-t border-amber-200 pt-2 dark:border-amber-900" data-testid="listen-test">
      <div className="flex items-center gap-2">
        <button type="button" className={button} onClick={() => void start()} disabled={listen.isPending}>
          {listen.isPending ? "Listening…" : "Listen for test event"}
        </button>
        {pinned ? (
          <span
            className="flex items-center gap-1 text-[11px] text-slate-600 dark:text-slate-400"
            data-testid="sample-pinned"
          >
            Sample payload pinned
            <button type="button" className="text-brand-600 underline" onClick={unpin}>
              clear
            </button>
          </span>
        ) : null}
      </div>
      {listen.isPending ? (
        <p data-testid="listen-waiting" className="text-xs text-slate-700 dark:text-slate-300">
          Waiting for one request to <code className="break-all font-mono">{testUrl}</code> (up to{" "}
          {LISTEN_MS / 60_000} minutes)…
        </p>
      ) : null}
      {listen.error ? <p className="text-xs text-red-600 dark:text-red-400">{listen.error.message}</p> : null}
      {event && event.payload === null ? (
        <p data-testid="listen-timeout" className="text-xs text-slate-600 dark:text-slate-400">
          No request arrived within {LISTEN_MS / 60_000} minutes.
        </p>
      ) : null}
      {event && event.payload !== null ? (
        <div className="space-y-1.5">
          <JsonViewer testId="test-event-payload" label="Test event" value={event.payload} />
          <button type="button" className={button} onClick={() => pin(event.payload)}>
            Use as sample payload
          </button>
        </div>
      ) : null}
    </div>
  );
}
