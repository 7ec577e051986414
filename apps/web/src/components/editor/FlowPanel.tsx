"use client";

import { useReactFlow } from "@xyflow/react";
import { copySelection, duplicateSelection } from "./actions";
import { FailureSettings } from "./FailureSettings";
import { breakCoalescing, useEditor } from "./store";
import type { FlowSettings } from "@switchyard/contracts";

const input =
  "block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-normal dark:border-slate-700 dark:bg-slate-800";
const label = "space-y-1 text-xs font-medium text-slate-700 dark:text-slate-300";
const button =
  "rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800";

/** Shown when nothing is selected: flow-wide settings, every problem, and how to get going. */
export function FlowPanel() {
  const settings = useEditor((s) => s.doc.settings);
  const problems = useEditor((s) => s.problems);
  const nodeCount = useEditor((s) => s.doc.nodes.length);
  const { fitView } = useReactFlow();
  const set = (patch: Partial<FlowSettings>, key: string) =>
    useEditor
      .getState()
      .edit((doc) => ({ ...doc, settings: { ...doc.settings, ...patch } }), `settings:${key}`);
  const focus = (nodeId: string) => {
    useEditor.getState().select({ nodes: new Set([nodeId]), edges: new Set(), notes: new Set() });
    void fitView({ nodes: [{ id: nodeId }], duration: 300, maxZoom: 1.2 });
  };

  return (
    <div className="space-y-5 p-4">
      <section aria-label="Problems" className="space-y-2">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Problems</h3>
        {problems.length === 0 ? (
          <p className="text-sm text-emerald-700 dark:text-emerald-400">
            {nodeCount ? "No problems: this flow can be activated." : "Add a trigger to begin."}
          </p>
        ) : (
          <ul className="space-y-1">
            {problems.map((p) => (
              <li key={`${p.code}:${p.nodeId}:${p.field}:${p.message}`}>
                <button
                  type="button"
                  disabled={!p.nodeId}
                  onClick={() => p.nodeId && focus(p.nodeId)}
                  className="w-full rounded-md bg-red-50 px-2.5 py-1.5 text-left text-xs text-red-700 enabled:hover:bg-red-100 dark:bg-red-950 dark:text-red-300"
                >
                  {/* A flow-level problem has no node to focus: its field says where. */}
                  {!p.nodeId && p.field && !p.message.startsWith(p.field)
                    ? `${p.field}: ${p.message}`
                    : p.message}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section
        aria-label="Flow settings"
        className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800"
      >
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Flow settings</h3>
        <label className={label}>
          Time zone
          <input
            aria-label="Time zone"
            value={settings.timezone}
            onChange={(e) => set({ timezone: e.target.value }, "tz")}
            onBlur={breakCoalescing}
            className={input}
          />
        </label>
        <div className="grid grid-cols-2 gap-3">
          <label className={label}>
            Run time limit (ms)
            <input
              type="number"
              aria-label="Run time limit (ms)"
              value={settings.maxRunMs}
              min={1}
              onChange={(e) => set({ maxRunMs: Math.max(1, Math.round(Number(e.target.value) || 1)) }, "max")}
              onBlur={breakCoalescing}
              className={input}
            />
          </label>
          <label className={label}>
            Parallel nodes
            <input
              type="number"
              aria-label="Parallel nodes"
              value={settings.concurrency}
              min={1}
              max={64}
              onChange={(e) =>
                set(
                  { concurrency: Math.min(64, Math.max(1, Math.round(Number(e.target.value) || 1))) },
                  "conc",
                )
              }
              onBlur={breakCoalescing}
              className={input}
            />
          </label>
        </div>
      </section>

      <FailureSettings settings={settings} set={set} />

      <section className="space-y-1.5 border-t border-slate-200 pt-4 text-xs text-slate-500 dark:border-slate-800 dark:text-slate-400">
        <h3 className="font-semibold uppercase tracking-wide">How to build</h3>
        <p>
          Select a node to configure it here. Drag from a dot on a node’s right edge to a node to connect
          them.
        </p>
        <p>
          Fields accept fixed values or expressions: start a value with <code className="font-mono">=</code>{" "}
          and use <code className="font-mono">item</code>, <code className="font-mono">trigger</code> or{" "}
          <code className="font-mono">nodes.&lt;id&gt;</code>.
        </p>
        <p>
          Press <kbd className="rounded border px-1">?</kbd> for keyboard shortcuts.
        </p>
      </section>
    </div>
  );
}

/** Several things selected: bulk actions. */
export function SelectionPanel() {
  const selection = useEditor((s) => s.selection);
  const deleteSelection = useEditor((s) => s.deleteSelection);
  const nodes = selection.nodes.size;
  const notes = selection.notes.size;
  const edges = selection.edges.size;
  const parts = [
    nodes && `${nodes} node${nodes > 1 ? "s" : ""}`,
    notes && `${notes} note${notes > 1 ? "s" : ""}`,
    edges && `${edges} connection${edges > 1 ? "s" : ""}`,
  ].filter(Boolean);
  return (
    <div className="space-y-4 p-4" data-testid="selection-panel">
      <h2 className="font-semibold">{parts.join(", ")} selected</h2>
      <div className="flex flex-wrap gap-2">
        {nodes + notes > 0 ? (
          <>
            <button type="button" className={button} onClick={() => void copySelection()}>
              Copy
            </button>
            <button type="button" className={button} onClick={duplicateSelection}>
              Duplicate
            </button>
          </>
        ) : null}
        <button type="button" className={`${button} text-red-600`} onClick={deleteSelection}>
          Delete
        </button>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Copied nodes go to the clipboard as JSON, with their settings and the connections between them; paste
        them into any flow with Ctrl+V.
      </p>
    </div>
  );
}
