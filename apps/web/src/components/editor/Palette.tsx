"use client";

import { useReactFlow } from "@xyflow/react";
import { type DragEvent, useMemo, useState } from "react";
import { PALETTE_MIME } from "./Canvas";
import { addNode } from "./doc-ops";
import { categoryLabel, categoryRank, categoryTone } from "./categories";
import { NodeIcon } from "./NodeIcon";
import { useEditor } from "./store";
import type { CatalogueEntry } from "@switchyard/contracts";

/** Node types by category, searchable; drag one onto the canvas or click to add it after the selection. */
export function Palette() {
  const catalogue = useEditor((s) => s.catalogue);
  const [query, setQuery] = useState("");
  const { screenToFlowPosition, setCenter, getZoom } = useReactFlow();

  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const hits = [...catalogue.values()].filter(
      (e) =>
        !q ||
        e.title.toLowerCase().includes(q) ||
        e.type.includes(q) ||
        e.description.toLowerCase().includes(q),
    );
    const by = new Map<string, CatalogueEntry[]>();
    for (const e of hits) by.set(e.category, [...(by.get(e.category) ?? []), e]);
    return [...by.entries()].sort(
      (a, b) => categoryRank(a[0]) - categoryRank(b[0]) || a[0].localeCompare(b[0]),
    );
  }, [catalogue, query]);

  const onClick = (entry: CatalogueEntry) => {
    const s = useEditor.getState();
    const selected = s.selection.nodes.size === 1 ? [...s.selection.nodes][0] : undefined;
    const after = s.doc.nodes.find((n) => n.id === selected);
    let position: { x: number; y: number };
    if (after) position = { x: after.position.x + 300, y: after.position.y };
    else if (s.doc.nodes.length) {
      const right = s.doc.nodes.reduce((a, b) => (b.position.x > a.position.x ? b : a));
      position = { x: right.position.x + 300, y: right.position.y };
    } else {
      const pane = document.querySelector(".react-flow")?.getBoundingClientRect();
      const p = pane
        ? screenToFlowPosition({ x: pane.x + pane.width / 2, y: pane.y + pane.height / 2 })
        : { x: 0, y: 0 };
      position = { x: p.x - 120, y: p.y - 30 };
    }
    let id = "";
    s.edit((doc) => {
      const r = addNode(doc, s.catalogue, entry, position, after?.id);
      id = r.id;
      return r.doc;
    });
    s.select({ nodes: new Set([id]), edges: new Set(), notes: new Set() });
    // Keep the zoom: setCenter would otherwise jump to the maximum.
    void setCenter(position.x + 120, position.y + 30, { duration: 200, zoom: getZoom() });
  };

  const onDragStart = (e: DragEvent, entry: CatalogueEntry) => {
    e.dataTransfer.setData(PALETTE_MIME, entry.type);
    e.dataTransfer.effectAllowed = "copy";
  };

  return (
    <aside
      aria-label="Palette"
      className="flex w-64 shrink-0 flex-col border-r border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="p-3">
        <input
          type="search"
          aria-label="Search nodes"
          placeholder="Search nodes…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-800"
        />
      </div>
      <div className="flex-1 space-y-4 overflow-y-auto px-3 pb-4">
        {catalogue.size === 0 ? <p className="text-sm text-slate-500">Loading node types…</p> : null}
        {catalogue.size > 0 && groups.length === 0 ? (
          <p className="text-sm text-slate-500">
            No node type matches “{query}”. Try a word like “http”, “if” or “mail”.
          </p>
        ) : null}
        {groups.map(([category, entries]) => (
          <section key={category} aria-label={categoryLabel(category)}>
            <h3 className="mb-1.5 text-[11px] font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
              {categoryLabel(category)}
            </h3>
            <ul className="space-y-1">
              {entries.map((entry) => (
                <li key={entry.type}>
                  <button
                    type="button"
                    draggable
                    data-testid={`palette-${entry.type}`}
                    onDragStart={(e) => onDragStart(e, entry)}
                    onClick={() => onClick(entry)}
                    title={`${entry.description}\nDrag onto the canvas, or click to add after the selected node.`}
                    className="flex w-full cursor-grab items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-slate-100 active:cursor-grabbing dark:hover:bg-slate-800"
                  >
                    <span
                      className={`grid h-6 w-6 shrink-0 place-items-center rounded ${categoryTone(entry.category)}`}
                    >
                      <NodeIcon name={entry.icon} className="h-3.5 w-3.5" />
                    </span>
                    <span className="min-w-0">
                      <span className="block truncate font-medium">{entry.title}</span>
                      <span className="block truncate text-[11px] text-slate-500 dark:text-slate-400">
                        {entry.description}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
}
