/**
 * Maps the FlowDoc to React Flow nodes and edges. Objects are cached per source object so that an edit
 * (or a drag frame) hands React Flow new objects only for what changed; with 300 nodes that is what keeps
 * panning and dragging smooth.
 */
import type { Edge, Node } from "@xyflow/react";
import type { Selection } from "./store";
import type { FlowEdge, FlowNode, StickyNote } from "@switchyard/contracts";
import { edgeKey, NOTE_PREFIX } from "./types";

export type FlowRfNode = Node<{ node: FlowNode }, "flow">;
export type NoteRfNode = Node<{ note: StickyNote }, "note">;
export type RfNode = FlowRfNode | NoteRfNode;
export type RfEdge = Edge<{ edge: FlowEdge }, "deletable">;

type Measured = Record<string, { width: number; height: number }>;

interface Cached<S, R> {
  source: S;
  selected: boolean;
  measured: { width: number; height: number } | undefined;
  value: R;
}

const nodeCache = new Map<string, Cached<FlowNode, FlowRfNode>>();
const noteCache = new Map<string, Cached<StickyNote, NoteRfNode>>();
const edgeCache = new Map<string, Cached<FlowEdge, RfEdge>>();

function cached<S, R>(
  cache: Map<string, Cached<S, R>>,
  key: string,
  source: S,
  selected: boolean,
  measured: Cached<S, R>["measured"],
  make: () => R,
): R {
  const hit = cache.get(key);
  if (hit && hit.source === source && hit.selected === selected && hit.measured === measured)
    return hit.value;
  const value = make();
  cache.set(key, { source, selected, measured, value });
  return value;
}

export function toRfNodes(
  nodes: FlowNode[],
  notes: StickyNote[],
  sel: Selection,
  measured: Measured,
): RfNode[] {
  const out: RfNode[] = [];
  // Notes first, so they sit underneath the nodes.
  for (const note of notes) {
    const id = NOTE_PREFIX + note.id;
    const selected = sel.notes.has(note.id);
    out.push(
      cached(noteCache, id, note, selected, measured[id], () => ({
        id,
        type: "note",
        position: note.position,
        data: { note },
        selected,
        zIndex: -1,
        width: note.size?.width ?? 220,
        height: note.size?.height ?? 140,
        measured: measured[id],
        dragHandle: ".note-drag",
      })),
    );
  }
  for (const node of nodes) {
    const selected = sel.nodes.has(node.id);
    out.push(
      cached(nodeCache, node.id, node, selected, measured[node.id], () => ({
        id: node.id,
        type: "flow",
        position: node.position,
        data: { node },
        selected,
        measured: measured[node.id],
      })),
    );
  }
  return out;
}

export function toRfEdges(edges: FlowEdge[], sel: Selection): RfEdge[] {
  return edges.map((edge) => {
    const id = edgeKey(edge);
    const selected = sel.edges.has(id);
    return cached(edgeCache, id, edge, selected, undefined, () => ({
      id,
      type: "deletable",
      source: edge.from.node,
      sourceHandle: edge.from.port,
      target: edge.to.node,
      targetHandle: edge.to.port,
      selected,
      data: { edge },
    }));
  });
}
