"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { useTRPC } from "@/trpc/client";
import { toDoc } from "./doc-ops";
import { isDirty, useEditor } from "./store";
import { SHORTCUTS } from "./use-shortcuts";

export function Modal({ title, onClose, children }: { title: string; onClose(): void; children: ReactNode }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div className="fixed inset-0 z-50 grid place-items-center bg-slate-900/40 p-4">
      <div
        role="dialog"
        aria-modal="true"
        aria-label={title}
        className="max-h-[80vh] w-full max-w-lg overflow-y-auto rounded-xl border border-slate-200 bg-white p-5 shadow-xl dark:border-slate-700 dark:bg-slate-900"
      >
        <div className="mb-4 flex items-center justify-between">
          <h2 className="text-base font-semibold">{title}</h2>
          <button
            type="button"
            aria-label="Close"
            onClick={onClose}
            className="rounded px-2 text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            ✕
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

export function HelpDialog({ onClose }: { onClose(): void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      <table className="w-full text-sm">
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
              <td className="py-1.5 pr-4">
                <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-800">
                  {keys}
                </kbd>
              </td>
              <td className="py-1.5 text-slate-600 dark:text-slate-300">{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}

/** Saved versions, newest first. Restoring saves that version's definition as a new version. */
export function HistoryDialog({ flowId, onClose }: { flowId: string; onClose(): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const versions = useQuery(trpc.flow.versions.queryOptions({ id: flowId }));
  const save = useMutation(trpc.flow.save.mutationOptions());
  const restore = async (version: number) => {
    if (
      isDirty(useEditor.getState()) &&
      !window.confirm("Restoring replaces your unsaved changes. Continue?")
    )
      return;
    const { version: v } = await queryClient.fetchQuery(trpc.flow.get.queryOptions({ id: flowId, version }));
    const saved = await save.mutateAsync({ id: flowId, definition: v.definition as Record<string, unknown> });
    const s = useEditor.getState();
    const doc = toDoc(v.definition);
    s.edit(() => doc);
    s.markSaved(v.definition);
    s.setProblems(saved.problems);
    s.notify("info", `Restored version ${version} as version ${saved.version}.`);
    await queryClient.invalidateQueries({ queryKey: trpc.flow.pathKey() });
    onClose();
  };
  const list = versions.data ? [...versions.data].sort((a, b) => b.version - a.version) : [];
  return (
    <Modal title="Version history" onClose={onClose}>
      {versions.isPending ? <p className="text-sm text-slate-500">Loading versions…</p> : null}
      {save.error ? (
        <p role="alert" className="mb-2 text-sm text-red-600">
          {save.error.message}
        </p>
      ) : null}
      <ul className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="version-list">
        {list.map((v, i) => (
          <li key={v.version} className="flex items-center justify-between py-2 text-sm">
            <span>
              <span className="font-medium">Version {v.version}</span>
              <span className="ml-2 text-slate-500">{new Date(v.createdAt).toLocaleString()}</span>
              {i === 0 ? (
                <span className="ml-2 rounded bg-slate-100 px-1.5 text-xs dark:bg-slate-800">current</span>
              ) : null}
            </span>
            {i === 0 ? null : (
              <button
                type="button"
                disabled={save.isPending}
                onClick={() => void restore(v.version)}
                className="rounded-md border border-slate-300 px-2.5 py-1 text-xs hover:bg-slate-50 disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800"
              >
                Restore v{v.version}
              </button>
            )}
          </li>
        ))}
      </ul>
    </Modal>
  );
}
