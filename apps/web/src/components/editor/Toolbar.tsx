"use client";

import { useReactFlow } from "@xyflow/react";
import Link from "next/link";
import type { ReactNode } from "react";
import { addNote, autoLayout } from "./actions";
import { LiveRunBadge } from "./RunData";
import { useEditor } from "./store";

const tool =
  "inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm text-slate-700 hover:bg-slate-100 disabled:opacity-40 disabled:hover:bg-transparent dark:text-slate-200 dark:hover:bg-slate-800";

function Tool({
  label,
  shortcut,
  onClick,
  disabled,
  children,
}: {
  label: string;
  shortcut?: string;
  onClick(): void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={tool}
      onClick={onClick}
      disabled={disabled}
      title={shortcut ? `${label} (${shortcut})` : label}
      aria-label={label}
    >
      {children}
    </button>
  );
}

export interface ToolbarProps {
  name: string;
  version: number | undefined;
  active: boolean;
  dirty: boolean;
  saving: boolean;
  activating: boolean;
  running: boolean;
  onSave(): void;
  onToggleActive(): void;
  onRun(): void;
  onHistory(): void;
  onHelp(): void;
}

/** Flow name, state badges and every editor command that has a button. */
export function Toolbar(p: ToolbarProps) {
  const canUndo = useEditor((s) => s.past.length > 0);
  const canRedo = useEditor((s) => s.future.length > 0);
  const problems = useEditor((s) => s.problems.length);
  const undo = useEditor((s) => s.undo);
  const redo = useEditor((s) => s.redo);
  const { screenToFlowPosition, fitView } = useReactFlow();
  const center = () => {
    const pane = document.querySelector(".react-flow")?.getBoundingClientRect();
    return pane
      ? screenToFlowPosition({ x: pane.x + pane.width / 2 - 120, y: pane.y + pane.height / 2 - 70 })
      : { x: 0, y: 0 };
  };

  return (
    <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-2 dark:border-slate-800 dark:bg-slate-900">
      <Link
        href="/flows"
        className="text-sm text-slate-500 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
        aria-label="All flows"
      >
        Flows /
      </Link>
      <h1 className="truncate font-semibold" data-testid="flow-title">
        {p.name}
      </h1>
      <span className="text-xs text-slate-500 dark:text-slate-400">{p.version ? `v${p.version}` : ""}</span>
      {p.dirty ? (
        <span
          data-testid="unsaved"
          className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-900 dark:text-amber-200"
        >
          Unsaved changes
        </span>
      ) : (
        <span data-testid="saved" className="text-xs text-slate-400">
          Saved
        </span>
      )}
      {problems ? (
        <span
          data-testid="problem-count"
          className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          {problems} problem{problems > 1 ? "s" : ""}
        </span>
      ) : null}

      <div className="ml-auto flex items-center gap-0.5">
        <LiveRunBadge />
        <Tool label="Undo" shortcut="Ctrl+Z" onClick={undo} disabled={!canUndo}>
          ↶
        </Tool>
        <Tool label="Redo" shortcut="Ctrl+Shift+Z" onClick={redo} disabled={!canRedo}>
          ↷
        </Tool>
        <Tool
          label="Auto-layout"
          shortcut="L"
          onClick={() => void autoLayout().then(() => fitView({ duration: 200, padding: 0.2, maxZoom: 1 }))}
        >
          Layout
        </Tool>
        <Tool label="Add note" shortcut="N" onClick={() => addNote(center())}>
          Note
        </Tool>
        <Tool label="Version history" onClick={p.onHistory}>
          History
        </Tool>
        <Tool label="Keyboard shortcuts" shortcut="?" onClick={p.onHelp}>
          ?
        </Tool>
        <span className="mx-1 h-5 w-px bg-slate-200 dark:bg-slate-700" />
        <label
          className="flex items-center gap-1.5 px-2 text-sm"
          title="An active flow listens on its trigger"
        >
          <input
            type="checkbox"
            aria-label="Active"
            checked={p.active}
            disabled={p.activating}
            onChange={p.onToggleActive}
          />
          {p.active ? "Active" : "Inactive"}
        </label>
        <button
          type="button"
          onClick={p.onRun}
          disabled={p.running}
          title="Run the saved version now with the trigger's sample payload"
          className="inline-flex h-8 items-center rounded-md border border-slate-300 px-3 text-sm font-medium hover:bg-slate-50 disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {p.running ? "Running…" : "Run"}
        </button>
        <button
          type="button"
          onClick={p.onSave}
          disabled={p.saving}
          title="Save a new version (Ctrl+S)"
          className="inline-flex h-8 items-center rounded-md bg-brand-500 px-3 text-sm font-medium text-white hover:bg-brand-600 disabled:opacity-50"
        >
          {p.saving ? "Saving…" : "Save"}
        </button>
      </div>
    </header>
  );
}
