/**
 * The compiled, index-friendly view of a flow used by validation and the executor: adjacency lists,
 * the trigger, back edges (edges that close a cycle, found by depth-first search from the trigger)
 * and each loop node's body.
 */
import type { AnyNodeType, NodeRegistry } from "../contract";
import type { FlowDefinition, FlowNode } from "@switchyard/contracts/flow";

export interface GraphEdge {
  /** Position in `flow.edges`; the stable key of the edge inside a run. */
  index: number;
  id: string;
  from: { node: string; port: string };
  to: { node: string; port: string };
}

export interface FlowGraph {
  flow: FlowDefinition;
  /** Node ids in flow order (first occurrence of duplicated ids only). */
  order: string[];
  nodes: Map<string, FlowNode>;
  types: Map<string, AnyNodeType | undefined>;
  /** Edges whose both ends exist, in flow order. */
  edges: GraphEdge[];
  outgoing: Map<string, GraphEdge[]>;
  incoming: Map<string, GraphEdge[]>;
  /** All trigger nodes (a valid flow has exactly one). */
  triggers: string[];
  /** Indexes of edges that close a cycle. */
  backEdges: Set<number>;
  /** Loop node id → nodes re-run on each of its iterations. */
  loopBodies: Map<string, Set<string>>;
}

export function edgeId(edge: { id?: string | undefined }, index: number): string {
  return edge.id ?? `e${index}`;
}

export function compileGraph(flow: FlowDefinition, registry: NodeRegistry): FlowGraph {
  const nodes = new Map<string, FlowNode>();
  const types = new Map<string, AnyNodeType | undefined>();
  const order: string[] = [];
  const triggers: string[] = [];
  for (const node of flow.nodes) {
    if (nodes.has(node.id)) continue;
    nodes.set(node.id, node);
    order.push(node.id);
    const def = safeGet(registry, node.type);
    types.set(node.id, def);
    if (def?.kind === "trigger") triggers.push(node.id);
  }
  const outgoing = new Map<string, GraphEdge[]>(order.map((id) => [id, []]));
  const incoming = new Map<string, GraphEdge[]>(order.map((id) => [id, []]));
  const edges: GraphEdge[] = [];
  flow.edges.forEach((e, index) => {
    if (!nodes.has(e.from.node) || !nodes.has(e.to.node)) return;
    const edge: GraphEdge = { index, id: edgeId(e, index), from: e.from, to: e.to };
    edges.push(edge);
    outgoing.get(e.from.node)!.push(edge);
    incoming.get(e.to.node)!.push(edge);
  });
  const graph: FlowGraph = {
    flow,
    order,
    nodes,
    types,
    edges,
    outgoing,
    incoming,
    triggers,
    backEdges: new Set(),
    loopBodies: new Map(),
  };
  graph.backEdges = findBackEdges(graph);
  for (const id of order) {
    if (types.get(id)?.kind === "action" && (types.get(id) as { loop?: true }).loop) {
      graph.loopBodies.set(id, loopBody(graph, id));
    }
  }
  return graph;
}

/** A registry is caller code: a throwing lookup counts as an unknown type rather than a crash. */
function safeGet(registry: NodeRegistry, type: string): AnyNodeType | undefined {
  try {
    return registry.get(type);
  } catch {
    return undefined;
  }
}

/** Iterative DFS from the trigger first, then from any node not yet seen; edges into the stack are back edges. */
function findBackEdges(graph: FlowGraph): Set<number> {
  const state = new Map<string, 1 | 2>(); // 1 = on stack, 2 = done
  const back = new Set<number>();
  const roots = [...graph.triggers, ...graph.order];
  for (const root of roots) {
    if (state.has(root)) continue;
    const stack: { id: string; next: number }[] = [{ id: root, next: 0 }];
    state.set(root, 1);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const out = graph.outgoing.get(frame.id)!;
      if (frame.next >= out.length) {
        state.set(frame.id, 2);
        stack.pop();
        continue;
      }
      const edge = out[frame.next++]!;
      const s = state.get(edge.to.node);
      if (s === 1) back.add(edge.index);
      else if (s === undefined) {
        state.set(edge.to.node, 1);
        stack.push({ id: edge.to.node, next: 0 });
      }
    }
  }
  return back;
}

/** Nodes reachable from the loop node that lead back into it, not passing through the loop node itself. */
function loopBody(graph: FlowGraph, loopId: string): Set<string> {
  const sources = (graph.incoming.get(loopId) ?? [])
    .filter((e) => graph.backEdges.has(e.index))
    .map((e) => e.from.node);
  const forward = walk(loopId, (id) => graph.outgoing.get(id)!.map((e) => e.to.node), loopId, false);
  const backward = new Set<string>();
  for (const s of sources) {
    if (s === loopId) continue;
    for (const id of walk(s, (id) => graph.incoming.get(id)!.map((e) => e.from.node), loopId, true)) {
      backward.add(id);
    }
  }
  const body = new Set<string>();
  for (const id of forward) if (backward.has(id)) body.add(id);
  return body;
}

function walk(
  start: string,
  next: (id: string) => string[],
  avoid: string,
  includeStart: boolean,
): Set<string> {
  const seen = new Set<string>();
  const queue = includeStart ? [start] : next(start);
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (id === avoid || seen.has(id)) continue;
    seen.add(id);
    for (const n of next(id)) queue.push(n);
  }
  return seen;
}

/** Nodes reachable from `start` along edges (used for the unreachable-node check). */
export function reachableFrom(graph: FlowGraph, start: string): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const id = queue.pop()!;
    for (const e of graph.outgoing.get(id)!) {
      if (!seen.has(e.to.node)) {
        seen.add(e.to.node);
        queue.push(e.to.node);
      }
    }
  }
  return seen;
}
