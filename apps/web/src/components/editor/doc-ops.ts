/** Pure edits of a FlowDoc. The store wraps each in one undo step; nothing here touches React. */
import type { CatalogueEntry, Position } from "@switchyard/contracts";
import {
  EdgeEnd,
  FlowDefinition,
  FlowEdge,
  FlowNode,
  FlowSettings,
  StickyNote,
} from "@switchyard/contracts/flow";
import type { z } from "zod";
import { edgeKey, type FlowDoc } from "./types";

export type Catalogue = ReadonlyMap<string, CatalogueEntry>;

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Each field the schema accepts, parsed (absent ones get their defaults); one it refuses, kept as stored. */
function fieldwise<S extends z.ZodObject>(schema: S, raw: unknown): z.output<S> {
  const value = record(raw);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const parsed = field.safeParse(value[key]);
    const v = parsed.success ? parsed.data : value[key];
    if (v !== undefined) out[key] = v;
  }
  return out as z.output<S>;
}

/** A stored flow the schema refuses, part by part, so the editor can open it and show its problems. */
function leniently(definition: unknown): FlowDoc {
  const d = record(definition);
  return {
    ...fieldwise(FlowDefinition, d),
    nodes: list(d.nodes).map((n) => fieldwise(FlowNode, n)),
    edges: list(d.edges).map((e) => ({
      ...fieldwise(FlowEdge, e),
      from: fieldwise(EdgeEnd, record(e).from),
      to: fieldwise(EdgeEnd, record(e).to),
    })),
    notes: list(d.notes).map((n) => fieldwise(StickyNote, n)),
    settings: fieldwise(FlowSettings, d.settings),
  };
}

/**
 * Accepts any stored definition and fills the defaults of the flow schema (@switchyard/contracts).
 * A flow is saved with its problems, so one the schema refuses is read part by part (see `leniently`).
 */
export function toDoc(definition: unknown): FlowDoc {
  const whole = FlowDefinition.safeParse(definition);
  const { pinData, ...doc } = whole.success ? whole.data : leniently(definition);
  return pinData && Object.keys(pinData).length > 0 ? { ...doc, pinData } : doc;
}

/** What flow.save stores (pinData only when something is pinned, so unpinned flows keep their shape). */
export function toDefinition(doc: FlowDoc) {
  const def = { nodes: doc.nodes, edges: doc.edges, settings: doc.settings, notes: doc.notes };
  return doc.pinData && Object.keys(doc.pinData).length > 0 ? { ...def, pinData: doc.pinData } : def;
}

export function outputsOf(node: FlowNode, entry: CatalogueEntry | undefined): string[] {
  const ports = entry?.ports ?? ["main"];
  return node.onError === "route" ? [...ports, "error"] : ports;
}

export function inputsOf(entry: CatalogueEntry | undefined): string[] {
  if (!entry) return ["main"];
  return entry.kind === "trigger" ? [] : entry.inputs;
}

/** A readable id derived from the type (`http.request` → `request`, then `request_2`). */
export function freshId(base: string, taken: ReadonlySet<string>): string {
  const stem = (base.split(".").pop() ?? "node").replace(/[^a-zA-Z0-9_]/g, "_") || "node";
  if (!taken.has(stem)) return stem;
  for (let i = 2; ; i++) if (!taken.has(`${stem}_${i}`)) return `${stem}_${i}`;
}

function takenIds(doc: FlowDoc): Set<string> {
  return new Set(doc.nodes.map((n) => n.id));
}

export interface Connection {
  source: string;
  sourceHandle: string | null;
  target: string;
  targetHandle: string | null;
}

/** Why a connection is refused, or null when it is fine. Shown to the person who tried it. */
export function explainConnection(doc: FlowDoc, catalogue: Catalogue, c: Connection): string | null {
  if (c.source === c.target) return "A node cannot connect to itself.";
  const from = doc.nodes.find((n) => n.id === c.source);
  const to = doc.nodes.find((n) => n.id === c.target);
  if (!from || !to) return "Connect two nodes of this flow.";
  const toEntry = catalogue.get(to.type);
  if (toEntry?.kind === "trigger")
    return `“${to.name || to.id}” is a trigger: it starts the flow, nothing connects into it.`;
  const port = c.sourceHandle ?? "main";
  const input = c.targetHandle ?? inputsOf(toEntry)[0] ?? "main";
  if (!outputsOf(from, catalogue.get(from.type)).includes(port))
    return `“${from.name || from.id}” has no output “${port}”.`;
  if (!inputsOf(toEntry).includes(input)) return `“${to.name || to.id}” has no input “${input}”.`;
  const dup = doc.edges.some(
    (e) => e.from.node === c.source && e.from.port === port && e.to.node === c.target && e.to.port === input,
  );
  if (dup) return "These two ports are already connected.";
  return null;
}

export function connect(doc: FlowDoc, catalogue: Catalogue, c: Connection): FlowDoc {
  const toEntry = catalogue.get(doc.nodes.find((n) => n.id === c.target)?.type ?? "");
  const edge: FlowEdge = {
    from: { node: c.source, port: c.sourceHandle ?? "main" },
    to: { node: c.target, port: c.targetHandle ?? inputsOf(toEntry)[0] ?? "main" },
  };
  return { ...doc, edges: [...doc.edges, edge] };
}

/** Adds a node of `entry`'s type; with `after`, also connects after's first output to it. */
export function addNode(
  doc: FlowDoc,
  catalogue: Catalogue,
  entry: CatalogueEntry,
  position: Position,
  after?: string,
): { doc: FlowDoc; id: string } {
  const id = freshId(entry.type, takenIds(doc));
  const node: FlowNode = {
    id,
    type: entry.type,
    typeVersion: entry.typeVersion,
    name: entry.title,
    config: {},
    position: { x: Math.round(position.x), y: Math.round(position.y) },
    onError: "stop",
  };
  let next: FlowDoc = { ...doc, nodes: [...doc.nodes, node] };
  const prev = after ? doc.nodes.find((n) => n.id === after) : undefined;
  if (prev && entry.kind !== "trigger") {
    const port = outputsOf(prev, catalogue.get(prev.type))[0] ?? "main";
    next = {
      ...next,
      edges: [
        ...next.edges,
        { from: { node: prev.id, port }, to: { node: id, port: entry.inputs[0] ?? "main" } },
      ],
    };
  }
  return { doc: next, id };
}

export function removeElements(
  doc: FlowDoc,
  nodeIds: ReadonlySet<string>,
  edgeKeys: ReadonlySet<string>,
  noteIds: ReadonlySet<string>,
): FlowDoc {
  // A deleted node's pin goes with it (a new node reusing the id must not inherit it).
  const pins = doc.pinData ? Object.entries(doc.pinData).filter(([id]) => !nodeIds.has(id)) : [];
  const { pinData: _old, ...rest } = doc;
  return {
    ...rest,
    ...(pins.length ? { pinData: Object.fromEntries(pins) } : {}),
    nodes: doc.nodes.filter((n) => !nodeIds.has(n.id)),
    edges: doc.edges.filter(
      (e) => !edgeKeys.has(edgeKey(e)) && !nodeIds.has(e.from.node) && !nodeIds.has(e.to.node),
    ),
    notes: doc.notes.filter((n) => !noteIds.has(n.id)),
  };
}

/** The clipboard format: nodes with their configs, the edges between them, and notes. */
export interface Fragment {
  switchyard: "fragment";
  version: 1;
  nodes: FlowNode[];
  edges: FlowEdge[];
  notes: StickyNote[];
}

export function fragmentOf(
  doc: FlowDoc,
  nodeIds: ReadonlySet<string>,
  noteIds: ReadonlySet<string>,
): Fragment {
  return {
    switchyard: "fragment",
    version: 1,
    nodes: doc.nodes.filter((n) => nodeIds.has(n.id)),
    edges: doc.edges.filter((e) => nodeIds.has(e.from.node) && nodeIds.has(e.to.node)),
    notes: doc.notes.filter((n) => noteIds.has(n.id)),
  };
}

export function parseFragment(text: string): Fragment | null {
  try {
    const value = JSON.parse(text) as Partial<Fragment>;
    if (value?.switchyard !== "fragment" || !Array.isArray(value.nodes) || !Array.isArray(value.edges))
      return null;
    return {
      switchyard: "fragment",
      version: 1,
      nodes: value.nodes,
      edges: value.edges,
      notes: value.notes ?? [],
    };
  } catch {
    return null;
  }
}

/** Inserts a fragment with fresh ids, shifted by `offset`; edges follow the renamed nodes. */
export function pasteFragment(
  doc: FlowDoc,
  fragment: Fragment,
  offset: Position,
): { doc: FlowDoc; nodeIds: string[]; noteIds: string[] } {
  const taken = takenIds(doc);
  const rename = new Map<string, string>();
  const nodes = fragment.nodes.map((n) => {
    const id = freshId(taken.has(n.id) ? n.type : n.id, taken);
    taken.add(id);
    rename.set(n.id, id);
    return {
      ...structuredClone(n),
      id,
      position: { x: n.position.x + offset.x, y: n.position.y + offset.y },
    };
  });
  const edges = fragment.edges
    .filter((e) => rename.has(e.from.node) && rename.has(e.to.node))
    .map((e) => ({
      from: { node: rename.get(e.from.node)!, port: e.from.port },
      to: { node: rename.get(e.to.node)!, port: e.to.port },
    }));
  const noteTaken = new Set(doc.notes.map((n) => n.id));
  const notes = fragment.notes.map((n) => {
    const id = freshId("note", noteTaken);
    noteTaken.add(id);
    return { ...n, id, position: { x: n.position.x + offset.x, y: n.position.y + offset.y } };
  });
  return {
    doc: {
      ...doc,
      nodes: [...doc.nodes, ...nodes],
      edges: [...doc.edges, ...edges],
      notes: [...doc.notes, ...notes],
    },
    nodeIds: nodes.map((n) => n.id),
    noteIds: notes.map((n) => n.id),
  };
}

export function updateNode(doc: FlowDoc, id: string, patch: (n: FlowNode) => FlowNode): FlowDoc {
  return { ...doc, nodes: doc.nodes.map((n) => (n.id === id ? patch(n) : n)) };
}

/** Renames a node id and every edge that touches it; refuses ids that are taken or malformed. */
export function renameNodeId(doc: FlowDoc, from: string, to: string): FlowDoc | string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(to))
    return "Use letters, digits and _ (not starting with a digit), so expressions can say nodes.<id>.";
  if (to !== from && doc.nodes.some((n) => n.id === to)) return `Another node already has the id “${to}”.`;
  const end = (e: { node: string; port: string }) => (e.node === from ? { ...e, node: to } : e);
  const pins = doc.pinData
    ? Object.fromEntries(Object.entries(doc.pinData).map(([id, items]) => [id === from ? to : id, items]))
    : undefined;
  return {
    ...doc,
    ...(pins ? { pinData: pins } : {}),
    nodes: doc.nodes.map((n) => (n.id === from ? { ...n, id: to } : n)),
    edges: doc.edges.map((e) => ({ ...e, from: end(e.from), to: end(e.to) })),
  };
}
