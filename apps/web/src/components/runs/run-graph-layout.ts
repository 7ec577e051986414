/**
 * Positions for the run graph. A run's flow version was written without positions (REST, CLI import)
 * or with nodes on each other: it is laid out with the editor's elk layout; otherwise kept as drawn.
 * The run page never saves anything, so this is view-only.
 */
import type { Position } from "@switchyard/contracts";
import { useEffect, useState } from "react";
import { layoutGraph } from "../graph/elk-layout";
import { needsLayout } from "../graph/overlap";
import type { DefinitionShape } from "./RunGraph";

/** RunNode's size (w-52, two lines and a status pill; a failed node adds two lines of error). */
export const RUN_NODE_SIZE = { width: 208, height: 96 };

function ports(definition: DefinitionShape) {
  const inputs = new Map<string, string[]>();
  const outputs = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, node: string, port: string) => {
    const list = m.get(node) ?? [];
    if (!list.includes(port)) list.push(port);
    m.set(node, list);
  };
  for (const e of definition.edges ?? []) {
    add(outputs, e.from.node, e.from.port ?? "main");
    add(inputs, e.to.node, e.to.port ?? "main");
  }
  return { inputs, outputs };
}

export async function runGraphPositions(definition: DefinitionShape): Promise<Map<string, Position> | null> {
  const nodes = definition.nodes ?? [];
  const boxes = nodes.map((n) => ({ id: n.id, position: n.position ?? { x: 0, y: 0 }, ...RUN_NODE_SIZE }));
  if (!needsLayout(boxes)) return null;
  const { inputs, outputs } = ports(definition);
  return layoutGraph(
    nodes.map((n) => ({
      id: n.id,
      ...RUN_NODE_SIZE,
      inputs: inputs.get(n.id) ?? [],
      outputs: outputs.get(n.id) ?? [],
    })),
    (definition.edges ?? []).map((e) => ({
      from: { node: e.from.node, port: e.from.port ?? "main" },
      to: { node: e.to.node, port: e.to.port ?? "main" },
    })),
  );
}

export type RunGraphLayout =
  | { state: "pending" }
  | { state: "ready"; positions: Map<string, Position> | null }
  | { state: "failed"; message: string };

/** The positions to draw with: `null` positions mean "as stored"; pending while elk works. */
export function useRunGraphLayout(definition: DefinitionShape): RunGraphLayout {
  const [layout, setLayout] = useState<RunGraphLayout>({ state: "pending" });
  useEffect(() => {
    let stale = false;
    setLayout({ state: "pending" });
    runGraphPositions(definition)
      .then((positions) => !stale && setLayout({ state: "ready", positions }))
      .catch((err: Error) => !stale && setLayout({ state: "failed", message: err.message }));
    return () => {
      stale = true;
    };
  }, [definition]);
  return layout;
}
