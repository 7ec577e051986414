"use client";

import { NodeResizer, type NodeProps } from "@xyflow/react";
import { memo, useEffect, useState } from "react";
import type { NoteRfNode } from "./rf-adapter";
import { useEditor } from "./store";

/** A sticky note: drag by its top bar, resize from the corners, text is committed as one undo step on blur. */
export const StickyNote = memo(function StickyNote({ data, selected }: NodeProps<NoteRfNode>) {
  const note = data.note;
  const [text, setText] = useState(note.text);
  useEffect(() => setText(note.text), [note.text]);
  const commit = () => {
    if (text === note.text) return;
    useEditor
      .getState()
      .edit((doc) => ({ ...doc, notes: doc.notes.map((n) => (n.id === note.id ? { ...n, text } : n)) }));
  };
  return (
    <div
      data-testid="sticky-note"
      className={`flex h-full w-full flex-col rounded-lg border bg-amber-50 shadow-sm dark:bg-amber-950/60 ${
        selected ? "border-amber-500" : "border-amber-200 dark:border-amber-900"
      }`}
    >
      <NodeResizer
        isVisible={selected}
        minWidth={140}
        minHeight={80}
        lineClassName="!border-amber-400"
        handleClassName="!h-2.5 !w-2.5 !border-amber-500 !bg-white"
        onResizeStart={() => useEditor.getState().beginGesture()}
        onResizeEnd={() => useEditor.getState().endGesture()}
      />
      <div
        className="note-drag h-4 cursor-grab rounded-t-lg bg-amber-200/70 dark:bg-amber-900/70"
        title="Drag to move"
      />
      <textarea
        aria-label="Note text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        placeholder="Write a note for whoever reads this flow next…"
        className="nodrag nowheel h-full w-full flex-1 resize-none bg-transparent p-2 text-sm text-amber-950 outline-none placeholder:text-amber-700/60 dark:text-amber-100"
      />
    </div>
  );
});
