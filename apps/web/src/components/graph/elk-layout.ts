/**
 * Layered left-to-right layout with elkjs, shared by the editor and the run graph. Port order is kept
 * (FIXED_ORDER), so an If's `true` stays above its `false`.
 */
import type { Position } from "@switchyard/contracts";

export interface LayoutNode {
  id: string;
  width: number;
  height: number;
  inputs: readonly string[];
  outputs: readonly string[];
}

export interface LayoutEdge {
  from: { node: string; port: string };
  to: { node: string; port: string };
}

/** elk is large and only needed on demand; callers may start fetching it early. */
let elkModule: Promise<typeof import("elkjs/lib/elk.bundled.js")> | undefined;
export function preloadLayout() {
  elkModule ??= import("elkjs/lib/elk.bundled.js");
  return elkModule;
}

const SEP = "\u0000";

export async function layoutGraph(
  nodes: readonly LayoutNode[],
  edges: readonly LayoutEdge[],
): Promise<Map<string, Position>> {
  const { default: ELK } = await preloadLayout();
  const elk = new ELK();
  const ids = new Set(nodes.map((n) => n.id));
  const children = nodes.map((n) => ({
    id: n.id,
    width: n.width,
    height: n.height,
    layoutOptions: { "elk.portConstraints": "FIXED_ORDER" },
    ports: [
      ...n.inputs.map((p) => ({
        id: `${n.id}${SEP}in${SEP}${p}`,
        layoutOptions: { "elk.port.side": "WEST" },
      })),
      ...n.outputs.map((p) => ({
        id: `${n.id}${SEP}out${SEP}${p}`,
        layoutOptions: { "elk.port.side": "EAST" },
      })),
    ],
  }));
  // Edges to ports a node no longer has would make elk throw; point them at the node instead.
  const portIds = new Set(children.flatMap((c) => c.ports.map((p) => p.id)));
  const end = (node: string, side: "in" | "out", port: string) => {
    const id = `${node}${SEP}${side}${SEP}${port}`;
    return portIds.has(id) ? id : node;
  };
  const graph = {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.spacing.nodeNode": "48",
      "elk.layered.spacing.nodeNodeBetweenLayers": "96",
      "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
    },
    children,
    edges: edges
      .filter((e) => ids.has(e.from.node) && ids.has(e.to.node))
      .map((e, i) => ({
        id: `e${i}`,
        sources: [end(e.from.node, "out", e.from.port)],
        targets: [end(e.to.node, "in", e.to.port)],
      })),
  };
  const result = await elk.layout(graph);
  const out = new Map<string, Position>();
  for (const child of result.children ?? [])
    out.set(child.id, { x: Math.round(child.x ?? 0), y: Math.round(child.y ?? 0) });
  return out;
}
