/**
 * The one store of the editor canvas. `doc` is the flow being edited; every edit goes through `edit()`,
 * which pushes the previous snapshot on the undo stack (snapshots share unchanged nodes, so they are cheap).
 * Selection, measured sizes, problems and run status are view state and never enter the history.
 */
import type { EdgeChange, NodeChange } from "@xyflow/react";
import { create } from "zustand";
import { type Catalogue, removeElements, toDefinition, toDoc } from "./doc-ops";
import type { CatalogueEntry, Problem } from "@switchyard/contracts";
import { edgeKey, type FlowDoc, NOTE_PREFIX, type NodeRunStatus } from "./types";

const HISTORY_LIMIT = 300;

export interface Notice {
  id: number;
  kind: "info" | "error";
  text: string;
}

/** The newest run of the flow as the editor follows it (polled; see use-run-follower). */
export interface LiveRun {
  id: string;
  status: string;
  /** When it ended, started or was queued, whichever is latest known (ISO). */
  at: string;
  /** The latest step row per node (attempts and loop visits come in checkpoint order, last wins). */
  steps: Record<string, LiveStep>;
}

export interface LiveStep {
  rowId: string;
  status: string;
  truncated: boolean;
}

export interface Selection {
  nodes: ReadonlySet<string>;
  edges: ReadonlySet<string>;
  notes: ReadonlySet<string>;
}

const emptySelection: Selection = { nodes: new Set(), edges: new Set(), notes: new Set() };

export interface EditorState {
  flowId: string | null;
  doc: FlowDoc;
  /** JSON of the definition last loaded or saved; the doc is "dirty" when it differs. */
  savedJson: string;
  past: FlowDoc[];
  future: FlowDoc[];
  selection: Selection;
  measured: Record<string, { width: number; height: number }>;
  catalogue: Catalogue;
  problems: Problem[];
  nodeStatus: Record<string, NodeRunStatus>;
  notice: Notice | null;
  liveRun: LiveRun | null;
  /** A run started by this editor's Run button: its end is announced in a notice. */
  announceRunId: string | null;

  load(flowId: string, definition: unknown): void;
  markSaved(definition: unknown): void;
  setCatalogue(entries: CatalogueEntry[]): void;
  setProblems(problems: Problem[]): void;
  setNodeStatus(status: Record<string, NodeRunStatus>): void;
  notify(kind: Notice["kind"], text: string): void;
  setLiveRun(run: LiveRun | null): void;
  setAnnounceRunId(id: string | null): void;
  /**
   * Applies one undoable edit; returning the same doc records nothing. Edits with the same `coalesce` key
   * in quick succession (typing into one field) share one undo step.
   */
  edit(fn: (doc: FlowDoc) => FlowDoc, coalesce?: string): void;
  /** Records the current doc before a gesture (drag, resize) whose intermediate states are not undo steps. */
  beginGesture(): void;
  /** Drops the gesture's snapshot again when it changed nothing. */
  endGesture(): void;
  undo(): void;
  redo(): void;
  select(sel: Partial<Selection>): void;
  deleteSelection(): void;
  onNodesChange(changes: NodeChange[]): void;
  onEdgesChange(changes: EdgeChange[]): void;
}

let noticeId = 0;
const COALESCE_MS = 1500;
let lastEdit: { key: string | undefined; at: number } = { key: undefined, at: 0 };

/** Ends a typing burst, so the next keystroke starts a new undo step (called on blur and on undo/redo). */
export function breakCoalescing() {
  lastEdit = { key: undefined, at: 0 };
}

export const useEditor = create<EditorState>()((set, get) => ({
  flowId: null,
  doc: toDoc({}),
  savedJson: "",
  past: [],
  future: [],
  selection: emptySelection,
  measured: {},
  catalogue: new Map(),
  problems: [],
  nodeStatus: {},
  notice: null,
  liveRun: null,
  announceRunId: null,

  load(flowId, definition) {
    const doc = toDoc(definition);
    set({
      flowId,
      doc,
      savedJson: JSON.stringify(toDefinition(doc)),
      past: [],
      future: [],
      selection: emptySelection,
      problems: [],
      nodeStatus: {},
      liveRun: null,
      announceRunId: null,
    });
  },
  markSaved(definition) {
    set({ savedJson: JSON.stringify(toDefinition(toDoc(definition))) });
  },
  setCatalogue(entries) {
    set({ catalogue: new Map(entries.map((e) => [e.type, e])) });
  },
  setProblems(problems) {
    set({ problems });
  },
  setNodeStatus(nodeStatus) {
    set({ nodeStatus });
  },
  notify(kind, text) {
    set({ notice: { id: ++noticeId, kind, text } });
  },
  setLiveRun(liveRun) {
    set({ liveRun });
  },
  setAnnounceRunId(announceRunId) {
    set({ announceRunId });
  },
  edit(fn, coalesce) {
    const { doc, past } = get();
    const next = fn(doc);
    if (next === doc) return;
    const now = Date.now();
    const merge =
      coalesce !== undefined &&
      lastEdit.key === coalesce &&
      now - lastEdit.at < COALESCE_MS &&
      past.length > 0;
    lastEdit = { key: coalesce, at: now };
    set({ doc: next, past: merge ? past : [...past, doc].slice(-HISTORY_LIMIT), future: [] });
  },
  beginGesture() {
    breakCoalescing();
    const { doc, past } = get();
    set({ past: [...past, doc].slice(-HISTORY_LIMIT), future: [] });
  },
  endGesture() {
    const { doc, past } = get();
    const last = past[past.length - 1];
    if (last && JSON.stringify(last) === JSON.stringify(doc)) set({ past: past.slice(0, -1) });
  },
  undo() {
    breakCoalescing();
    const { doc, past, future } = get();
    const prev = past[past.length - 1];
    if (!prev) return;
    set({
      doc: prev,
      past: past.slice(0, -1),
      future: [doc, ...future],
      selection: pruneSelection(get().selection, prev),
    });
  },
  redo() {
    breakCoalescing();
    const { doc, past, future } = get();
    const next = future[0];
    if (!next) return;
    set({
      doc: next,
      past: [...past, doc],
      future: future.slice(1),
      selection: pruneSelection(get().selection, next),
    });
  },
  select(sel) {
    set({ selection: { ...get().selection, ...sel } });
  },
  deleteSelection() {
    const { selection } = get();
    if (!selection.nodes.size && !selection.edges.size && !selection.notes.size) return;
    get().edit((doc) => removeElements(doc, selection.nodes, selection.edges, selection.notes));
    set({ selection: emptySelection });
  },

  onNodesChange(changes) {
    const { doc, selection, measured } = get();
    let nodes = doc.nodes;
    let notes = doc.notes;
    let nextMeasured = measured;
    let sel: Selection | null = null;
    for (const ch of changes) {
      if (ch.type === "position" && ch.position) {
        const p = { x: Math.round(ch.position.x), y: Math.round(ch.position.y) };
        if (ch.id.startsWith(NOTE_PREFIX)) {
          const id = ch.id.slice(NOTE_PREFIX.length);
          notes = notes.map((n) => (n.id === id ? { ...n, position: p } : n));
        } else {
          nodes = nodes.map((n) => (n.id === ch.id ? { ...n, position: p } : n));
        }
      } else if (ch.type === "dimensions" && ch.dimensions) {
        nextMeasured = { ...nextMeasured, [ch.id]: ch.dimensions };
        if (ch.resizing && ch.id.startsWith(NOTE_PREFIX)) {
          const id = ch.id.slice(NOTE_PREFIX.length);
          const size = { width: Math.round(ch.dimensions.width), height: Math.round(ch.dimensions.height) };
          notes = notes.map((n) => (n.id === id ? { ...n, size } : n));
        }
      } else if (ch.type === "select") {
        sel ??= { nodes: new Set(selection.nodes), edges: selection.edges, notes: new Set(selection.notes) };
        const isNote = ch.id.startsWith(NOTE_PREFIX);
        const target = (isNote ? sel.notes : sel.nodes) as Set<string>;
        const id = isNote ? ch.id.slice(NOTE_PREFIX.length) : ch.id;
        if (ch.selected) target.add(id);
        else target.delete(id);
      }
    }
    // Moves happen inside a gesture whose snapshot was taken at drag start, so they bypass `edit`.
    const patch: Partial<EditorState> = {};
    if (nodes !== doc.nodes || notes !== doc.notes) patch.doc = { ...doc, nodes, notes };
    if (nextMeasured !== measured) patch.measured = nextMeasured;
    if (sel) patch.selection = sel;
    if (Object.keys(patch).length) set(patch);
  },
  onEdgesChange(changes) {
    const { selection } = get();
    let edges: Set<string> | null = null;
    for (const ch of changes) {
      if (ch.type === "select") {
        edges ??= new Set(selection.edges);
        if (ch.selected) edges.add(ch.id);
        else edges.delete(ch.id);
      }
    }
    if (edges) set({ selection: { ...selection, edges } });
  },
}));

function pruneSelection(sel: Selection, doc: FlowDoc): Selection {
  const nodes = new Set(doc.nodes.map((n) => n.id));
  const edges = new Set(doc.edges.map(edgeKey));
  const notes = new Set(doc.notes.map((n) => n.id));
  return {
    nodes: new Set([...sel.nodes].filter((id) => nodes.has(id))),
    edges: new Set([...sel.edges].filter((id) => edges.has(id))),
    notes: new Set([...sel.notes].filter((id) => notes.has(id))),
  };
}

/** True when the doc differs from what was last saved. */
export function isDirty(s: Pick<EditorState, "doc" | "savedJson">): boolean {
  return JSON.stringify(toDefinition(s.doc)) !== s.savedJson;
}
