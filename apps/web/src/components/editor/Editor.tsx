"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ReactFlowProvider } from "@xyflow/react";
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from "react";
import { ErrorBox } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { Canvas } from "./Canvas";
import { ConfigPanel } from "./ConfigPanel";
import { HelpDialog, HistoryDialog } from "./Dialogs";
import { EditorCommandsContext } from "./editor-commands";
import { toDefinition } from "./doc-ops";
import { arrangeOnOpen } from "./layout";
import { Notice } from "./Notice";
import { Palette } from "./Palette";
import { isDirty, useEditor } from "./store";
import { Toolbar } from "./Toolbar";
import { useRunFollower } from "./use-run-follower";
import { usePinRun } from "./use-pin-run";
import { useRunner } from "./use-runner";
import { useShortcuts } from "./use-shortcuts";
import { useUnsavedGuard } from "./use-unsaved-guard";

const VALIDATE_DEBOUNCE_MS = 350;

export function Editor({ flowId }: { flowId: string }) {
  return (
    <ReactFlowProvider>
      <EditorBody flowId={flowId} />
    </ReactFlowProvider>
  );
}

function EditorBody({ flowId }: { flowId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const flow = useQuery(
    trpc.flow.get.queryOptions(
      { id: flowId },
      { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false },
    ),
  );
  const catalogue = useQuery(
    trpc.catalogue.list.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }),
  );
  const loadedFlow = useEditor((s) => s.flowId);
  const [loadedVersion, setLoadedVersion] = useState<number>();
  const [dialog, setDialog] = useState<"help" | "history" | null>(null);

  // Load once per flow; later refetches (after a save) must not replace what is being edited. A flow
  // without positions (or with nodes on each other) is laid out first, so no node opens hidden.
  useEffect(() => {
    if (!flow.data || !catalogue.data || useEditor.getState().flowId === flowId) return;
    const { definition, version } = flow.data.version;
    const entries = new Map(catalogue.data.map((e) => [e.type, e]));
    let stale = false;
    void arrangeOnOpen(definition, entries)
      .catch((err: Error) => {
        useEditor.getState().notify("error", `Auto-layout failed: ${err.message}`);
        return definition;
      })
      .then((arranged) => {
        if (stale || useEditor.getState().flowId === flowId) return;
        useEditor.getState().load(flowId, arranged);
        setLoadedVersion(version);
      });
    return () => {
      stale = true;
    };
  }, [flow.data, catalogue.data, flowId]);
  useEffect(() => {
    // Read-only probe for end-to-end tests and debugging: the definition exactly as Save would send it.
    const w = window as unknown as { __switchyardEditor?: unknown };
    w.__switchyardEditor = {
      definition: () => toDefinition(useEditor.getState().doc),
      history: () => useEditor.getState().past.length,
    };
    return () => {
      w.__switchyardEditor = undefined;
      useEditor.getState().load("", {});
    };
  }, []);
  useEffect(() => {
    if (catalogue.data) useEditor.getState().setCatalogue(catalogue.data);
  }, [catalogue.data]);

  const doc = useEditor((s) => s.doc);
  const savedJson = useEditor((s) => s.savedJson);
  const deferredDoc = useDeferredValue(doc);
  const dirty = useMemo(
    () => loadedFlow === flowId && isDirty({ doc: deferredDoc, savedJson }),
    [deferredDoc, savedJson, loadedFlow, flowId],
  );
  useUnsavedGuard(dirty);

  // Validate with the engine on the server, a moment after the last edit; stale answers are dropped.
  const validate = useMutation(trpc.flow.validate.mutationOptions());
  const validateAsync = validate.mutateAsync;
  useEffect(() => {
    if (loadedFlow !== flowId) return;
    let stale = false;
    const timer = setTimeout(() => {
      validateAsync({ definition: toDefinition(deferredDoc) })
        .then((r) => !stale && useEditor.getState().setProblems(r.problems))
        .catch(() => undefined);
    }, VALIDATE_DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [deferredDoc, loadedFlow, flowId, validateAsync]);

  const saveMutation = useMutation(trpc.flow.save.mutationOptions());
  const saveAsync = saveMutation.mutateAsync;
  const save = useCallback(async () => {
    const definition = toDefinition(useEditor.getState().doc);
    try {
      const saved = await saveAsync({
        id: flowId,
        definition,
      });
      const s = useEditor.getState();
      s.markSaved(definition);
      s.setProblems(saved.problems);
      setLoadedVersion(saved.version);
      s.notify(
        "info",
        saved.problems.length
          ? `Saved version ${saved.version} (with ${saved.problems.length} problem(s) to fix before activating).`
          : `Saved version ${saved.version}.`,
      );
      await queryClient.invalidateQueries({ queryKey: trpc.flow.pathKey() });
      return saved;
    } catch (err) {
      useEditor.getState().notify("error", `Save failed: ${(err as Error).message}`);
      return null;
    }
  }, [flowId, saveAsync, queryClient, trpc]);

  const activeMutation = useMutation(trpc.flow.setActive.mutationOptions());
  const active = flow.data?.flow.active ?? false;
  const toggleActive = async () => {
    try {
      await activeMutation.mutateAsync({ id: flowId, active: !active });
      useEditor.getState().notify("info", active ? "Deactivated." : "Active: the trigger is listening.");
    } catch (err) {
      useEditor.getState().notify("error", (err as Error).message);
    }
    await queryClient.invalidateQueries({ queryKey: trpc.flow.get.queryKey({ id: flowId }) });
  };

  useRunFollower(flowId);
  const catalogueReady = useEditor((s) => s.catalogue.size > 0);
  usePinRun(flowId, loadedFlow === flowId && catalogueReady);
  const runner = useRunner(flowId, dirty, save);
  const showHelp = useCallback(() => setDialog("help"), []);
  const commands = useMemo(() => ({ flowId, dirty, save }), [flowId, dirty, save]);
  useShortcuts({ save: () => void save(), showHelp });

  if (flow.error)
    return (
      <div className="p-8">
        <ErrorBox message={flow.error.message} />
      </div>
    );
  if (catalogue.error)
    return (
      <div className="p-8">
        <ErrorBox message={catalogue.error.message} />
      </div>
    );

  return (
    <div
      className="flex h-screen flex-col"
      data-testid="flow-editor"
      data-loaded={loadedFlow === flowId && catalogue.data ? "true" : "false"}
    >
      <Toolbar
        name={flow.data?.flow.name ?? "Loading…"}
        version={loadedVersion}
        active={active}
        dirty={dirty}
        saving={saveMutation.isPending}
        activating={activeMutation.isPending}
        running={runner.running}
        onSave={() => void save()}
        onToggleActive={() => void toggleActive()}
        onRun={() => void runner.run()}
        onHistory={() => setDialog("history")}
        onHelp={showHelp}
      />
      <div className="flex min-h-0 flex-1">
        <Palette />
        <div className="min-w-0 flex-1">
          {loadedFlow === flowId ? <Canvas /> : <p className="p-8 text-sm text-slate-500">Loading flow…</p>}
        </div>
        <EditorCommandsContext.Provider value={commands}>
          <ConfigPanel />
        </EditorCommandsContext.Provider>
      </div>
      <Notice />
      {dialog === "help" ? <HelpDialog onClose={() => setDialog(null)} /> : null}
      {dialog === "history" ? <HistoryDialog flowId={flowId} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}
