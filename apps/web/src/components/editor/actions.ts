/**
 * Editor commands shared by the toolbar, the selection panel and the keyboard shortcuts. Each is one
 * undoable edit in the store.
 */
import { fragmentOf, parseFragment, pasteFragment } from "./doc-ops";
import { layoutPositions } from "./layout";
import { useEditor } from "./store";
import { edgeKey } from "./types";

const PASTE_STEP = 40;
let pasteCount = 0;
/** Last copied fragment, for browsers that refuse clipboard reads (the system clipboard still gets it). */
let memoryClipboard: string | null = null;

export function selectionFragmentJson(): string | null {
  const s = useEditor.getState();
  if (!s.selection.nodes.size && !s.selection.notes.size) return null;
  pasteCount = 0;
  const json = JSON.stringify(fragmentOf(s.doc, s.selection.nodes, s.selection.notes), null, 2);
  memoryClipboard = json;
  return json;
}

/** Copy from a button: writes the system clipboard (JSON text, so it also pastes across flows and tabs). */
export async function copySelection(): Promise<void> {
  const json = selectionFragmentJson();
  if (!json) return;
  try {
    await navigator.clipboard.writeText(json);
  } catch {
    // The in-memory copy still serves paste within this tab.
  }
  const s = useEditor.getState();
  s.notify("info", `Copied ${s.selection.nodes.size + s.selection.notes.size} item(s) as JSON.`);
}

/** Pastes a fragment's JSON; returns the new node ids, or null when the text is not a Switchyard fragment. */
export function pasteText(text: string | null | undefined): string[] | null {
  const fragment = text ? parseFragment(text) : null;
  if (!fragment) return null;
  pasteCount += 1;
  const offset = { x: PASTE_STEP * pasteCount, y: PASTE_STEP * pasteCount };
  const s = useEditor.getState();
  let ids: { nodeIds: string[]; noteIds: string[] } = { nodeIds: [], noteIds: [] };
  s.edit((doc) => {
    const r = pasteFragment(doc, fragment, offset);
    ids = r;
    return r.doc;
  });
  s.select({ nodes: new Set(ids.nodeIds), notes: new Set(ids.noteIds), edges: new Set() });
  return ids.nodeIds;
}

export async function pasteFromClipboard(): Promise<void> {
  let text: string | null = null;
  try {
    text = await navigator.clipboard.readText();
  } catch {
    text = memoryClipboard;
  }
  if (!pasteText(text) && !pasteText(memoryClipboard))
    useEditor.getState().notify("info", "The clipboard holds no Switchyard nodes to paste.");
}

export function duplicateSelection(): void {
  const s = useEditor.getState();
  if (!s.selection.nodes.size && !s.selection.notes.size) return;
  const fragment = fragmentOf(s.doc, s.selection.nodes, s.selection.notes);
  let ids: { nodeIds: string[]; noteIds: string[] } = { nodeIds: [], noteIds: [] };
  s.edit((doc) => {
    const r = pasteFragment(doc, fragment, { x: PASTE_STEP, y: PASTE_STEP });
    ids = r;
    return r.doc;
  });
  s.select({ nodes: new Set(ids.nodeIds), notes: new Set(ids.noteIds), edges: new Set() });
}

export function selectAll(): void {
  const { doc, select } = useEditor.getState();
  select({
    nodes: new Set(doc.nodes.map((n) => n.id)),
    notes: new Set(doc.notes.map((n) => n.id)),
    edges: new Set(doc.edges.map(edgeKey)),
  });
}

/** Lays the nodes out; the caller fits the view afterwards so the result is in sight. */
export async function autoLayout(): Promise<void> {
  const s = useEditor.getState();
  if (!s.doc.nodes.length) return;
  try {
    const positions = await layoutPositions(s.doc, s.catalogue, s.measured);
    s.edit((doc) => ({
      ...doc,
      nodes: doc.nodes.map((n) => ({ ...n, position: positions.get(n.id) ?? n.position })),
    }));
  } catch (err) {
    s.notify("error", `Auto-layout failed: ${(err as Error).message}`);
  }
}

export function addNote(at: { x: number; y: number }): void {
  const s = useEditor.getState();
  const taken = new Set(s.doc.notes.map((n) => n.id));
  let i = 1;
  while (taken.has(`note${i}`)) i++;
  const id = `note${i}`;
  s.edit((doc) => ({
    ...doc,
    notes: [
      ...doc.notes,
      {
        id,
        text: "",
        position: { x: Math.round(at.x), y: Math.round(at.y) },
        size: { width: 240, height: 140 },
      },
    ],
  }));
  s.select({ nodes: new Set(), notes: new Set([id]), edges: new Set() });
}
