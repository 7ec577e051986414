"use client";

import { createContext, useContext } from "react";

/** Commands of the open editor that panels deep in the tree need (the store holds data, not I/O). */
export interface EditorCommands {
  flowId: string;
  dirty: boolean;
  /** Saves a new version; resolves falsy when saving failed (the failure is already shown). */
  save(): Promise<unknown>;
}

export const EditorCommandsContext = createContext<EditorCommands | null>(null);

export function useEditorCommands(): EditorCommands {
  const c = useContext(EditorCommandsContext);
  if (!c) throw new Error("useEditorCommands outside the editor");
  return c;
}
