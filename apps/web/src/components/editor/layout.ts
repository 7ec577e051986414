/** Auto-layout with elkjs (layered, left to right), port order kept so `true` stays above `false`. */
import { inputsOf, outputsOf } from "./doc-ops";
import type { Catalogue } from "./doc-ops";
import type { Position } from "@switchyard/contracts";
import type { FlowDoc } from "./types";

const DEFAULT_SIZE = { width: 240, height: 80 };

/** elk is large and only needed on demand; it is fetched while the editor sits idle after opening. */
let elkModule: Promise<typeof import("elkjs/lib/elk.bundled.js")> | undefined;
export function preloadLayout() {
  elkModule ??= import("elkjs/lib/elk.bundled.js");
  return elkModule;
}

export async function layoutPositions(
  doc: FlowDoc,
  catalogue: Catalogue,
  measured: Record<string, { width: number; height: number }>,
): Promise<Map<string, Position>> {
  const { default: ELK } = await preloadLayout();
  const elk = new ELK();
  const ids = new Set(doc.nodes.map((n) => n.id));
  const graph = {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.spacing.nodeNode": "48",
      "elk.layered.spacing.nodeNodeBetweenLayers": "96",
      "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
    },
    children: doc.nodes.map((n) => {
      const entry = catalogue.get(n.type);
      const size = measured[n.id] ?? DEFAULT_SIZE;
      return {
        id: n.id,
        width: size.width,
        height: size.height,
        layoutOptions: { "elk.portConstraints": "FIXED_ORDER" },
        ports: [
          ...inputsOf(entry).map((p) => ({
            id: `${n.id}\u0000in\u0000${p}`,
            layoutOptions: { "elk.port.side": "WEST" },
          })),
          ...outputsOf(n, entry).map((p) => ({
            id: `${n.id}\u0000out\u0000${p}`,
            layoutOptions: { "elk.port.side": "EAST" },
          })),
        ],
      };
    }),
    edges: doc.edges
      .filter((e) => ids.has(e.from.node) && ids.has(e.to.node))
      .map((e, i) => ({
        id: `e${i}`,
        sources: [`${e.from.node}\u0000out\u0000${e.from.port}`],
        targets: [`${e.to.node}\u0000in\u0000${e.to.port}`],
      })),
  };
  // Edges to ports a node no longer has would make elk throw; point them at the node instead.
  const portIds = new Set(graph.children.flatMap((c) => c.ports.map((p) => p.id)));
  for (const edge of graph.edges) {
    if (!portIds.has(edge.sources[0] ?? "")) edge.sources = [edge.sources[0]?.split("\u0000")[0] ?? ""];
    if (!portIds.has(edge.targets[0] ?? "")) edge.targets = [edge.targets[0]?.split("\u0000")[0] ?? ""];
  }
  const result = await elk.layout(graph);
  const out = new Map<string, Position>();
  for (const child of result.children ?? [])
    out.set(child.id, { x: Math.round(child.x ?? 0), y: Math.round(child.y ?? 0) });
  return out;
}
