/** The editor's use of the shared elk layout: its ports and node sizes, and the layout on open. */
import type { Position } from "@switchyard/contracts";
import { layoutGraph, preloadLayout } from "../graph/elk-layout";
import { needsLayout } from "../graph/overlap";
import type { Catalogue } from "./doc-ops";
import { inputsOf, outputsOf, toDefinition, toDoc } from "./doc-ops";
import type { FlowDoc } from "./types";

export { preloadLayout };

/** FlowNodeCard's size before it is measured: w-60, a two-line header and one 24 px row per port. */
function estimatedSize(rows: number) {
  return { width: 240, height: 70 + Math.max(rows, 1) * 24 };
}

function sizeOf(catalogue: Catalogue, measured: Record<string, { width: number; height: number }>) {
  return (n: FlowDoc["nodes"][number]) => {
    const entry = catalogue.get(n.type);
    return measured[n.id] ?? estimatedSize(Math.max(inputsOf(entry).length, outputsOf(n, entry).length));
  };
}

export async function layoutPositions(
  doc: FlowDoc,
  catalogue: Catalogue,
  measured: Record<string, { width: number; height: number }>,
): Promise<Map<string, Position>> {
  const size = sizeOf(catalogue, measured);
  return layoutGraph(
    doc.nodes.map((n) => {
      const entry = catalogue.get(n.type);
      return { id: n.id, ...size(n), inputs: inputsOf(entry), outputs: outputsOf(n, entry) };
    }),
    doc.edges,
  );
}

/**
 * A flow whose nodes have no positions (all at 0,0) or sit on each other opens laid out. Only the
 * opened copy changes: the positions are stored when the person saves.
 */
export async function arrangeOnOpen(definition: unknown, catalogue: Catalogue): Promise<unknown> {
  const doc = toDoc(definition);
  const size = sizeOf(catalogue, {});
  if (!needsLayout(doc.nodes.map((n) => ({ id: n.id, position: n.position, ...size(n) })))) return definition;
  const positions = await layoutPositions(doc, catalogue, {});
  return toDefinition({
    ...doc,
    nodes: doc.nodes.map((n) => ({ ...n, position: positions.get(n.id) ?? n.position })),
  });
}
