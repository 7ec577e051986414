"use client";

import { useReactFlow } from "@xyflow/react";
import { useEffect } from "react";
import {
  addNote,
  autoLayout,
  duplicateSelection,
  pasteText,
  selectAll,
  selectionFragmentJson,
} from "./actions";
import { useEditor } from "./store";

/** The list the help dialog shows; keep it in step with the handler below. */
export const SHORTCUTS: [string, string][] = [
  ["Ctrl+S", "Save a new version"],
  ["Ctrl+Z", "Undo"],
  ["Ctrl+Shift+Z / Ctrl+Y", "Redo"],
  ["Ctrl+C / Ctrl+V", "Copy / paste nodes (as JSON, also between flows)"],
  ["Ctrl+D", "Duplicate the selection"],
  ["Ctrl+A", "Select everything"],
  ["Delete / Backspace", "Delete the selection"],
  ["Shift+drag", "Select with a box"],
  ["Ctrl+click", "Add to the selection"],
  ["L", "Auto-layout"],
  ["N", "Add a sticky note"],
  ["F", "Fit the flow into view"],
  ["Esc", "Clear the selection"],
  ["?", "Show this help"],
];

function typingInto(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

export function useShortcuts(opts: { save(): void; showHelp(): void }) {
  const { fitView, screenToFlowPosition, getZoom } = useReactFlow();
  const { save, showHelp } = opts;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === "s") {
        e.preventDefault();
        // Let a focused field hand its value over first.
        (document.activeElement as HTMLElement | null)?.blur?.();
        save();
        return;
      }
      if (typingInto(e.target)) return;
      const s = useEditor.getState();
      if (mod && key === "z") {
        e.preventDefault();
        if (e.shiftKey) s.redo();
        else s.undo();
      } else if (mod && key === "y") {
        e.preventDefault();
        s.redo();
      } else if (mod && key === "d") {
        e.preventDefault();
        duplicateSelection();
      } else if (mod && key === "a") {
        e.preventDefault();
        selectAll();
      } else if (!mod && (e.key === "Delete" || e.key === "Backspace")) {
        e.preventDefault();
        s.deleteSelection();
      } else if (!mod && e.key === "?") {
        e.preventDefault();
        showHelp();
      } else if (!mod && !e.altKey && key === "l") {
        void autoLayout().then(() => fitView({ duration: 200, padding: 0.2, maxZoom: 1 }));
      } else if (!mod && !e.altKey && key === "n") {
        const pane = document.querySelector(".react-flow")?.getBoundingClientRect();
        addNote(
          pane
            ? screenToFlowPosition({ x: pane.x + pane.width / 2 - 120, y: pane.y + pane.height / 2 - 70 })
            : { x: 0, y: 0 },
        );
      } else if (!mod && !e.altKey && key === "f") {
        void fitView({ duration: 300, padding: 0.2, maxZoom: 1 });
      } else if (e.key === "Escape") {
        s.select({ nodes: new Set(), edges: new Set(), notes: new Set() });
      }
    };
    // Copy and paste go through the clipboard events, which may read and write the system clipboard
    // without a permission prompt; the payload is plain JSON text.
    const onCopy = (e: ClipboardEvent) => {
      if (typingInto(e.target) || typingInto(document.activeElement)) return;
      const json = selectionFragmentJson();
      if (!json || !e.clipboardData) return;
      e.clipboardData.setData("text/plain", json);
      e.preventDefault();
    };
    const onPaste = (e: ClipboardEvent) => {
      if (typingInto(e.target) || typingInto(document.activeElement)) return;
      const ids = pasteText(e.clipboardData?.getData("text/plain"));
      if (!ids) return;
      e.preventDefault();
      // Bring what was pasted into sight (it keeps its place relative to the copied layout).
      void fitView({ nodes: ids.map((id) => ({ id })), duration: 200, maxZoom: getZoom(), padding: 0.3 });
    };
    window.addEventListener("keydown", onKey);
    document.addEventListener("copy", onCopy);
    document.addEventListener("paste", onPaste);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("copy", onCopy);
      document.removeEventListener("paste", onPaste);
    };
  }, [save, showHelp, fitView, screenToFlowPosition, getZoom]);
}
