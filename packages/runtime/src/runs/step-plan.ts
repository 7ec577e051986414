import type { StepRunMode } from "@switchyard/contracts/runs";
import type { FlowDefinition, FlowEdge } from "@switchyard/engine";

/**
 * Which part of a flow a step run executes. `node` and `until` keep the target and what it depends on;
 * `node` also stops walking back at pinned nodes (they answer from their pins, so what feeds them is not
 * needed) and lists the other kept nodes, whose outputs must come from an earlier run (`reuse`).
 */
export interface StepPlan {
  flow: FlowDefinition;
  /** Nodes whose outputs a `node` run takes from the earlier run (never executed again). */
  reuse: Set<string>;
}

const pinned = (flow: FlowDefinition, id: string) => (flow.pinData?.[id]?.length ?? 0) > 0;

export function planStepRun(
  flow: FlowDefinition,
  triggerId: string | undefined,
  mode: StepRunMode,
  target: string,
): StepPlan {
  if (mode === "retry") return { flow, reuse: new Set() };
  const ids = new Set(flow.nodes.map((n) => n.id));
  if (!ids.has(target)) throw new RangeError(`node "${target}" is not in this flow version`);
  const parents = new Map<string, FlowEdge[]>();
  for (const e of flow.edges) parents.set(e.to.node, [...(parents.get(e.to.node) ?? []), e]);
  const keep = new Set<string>([target]);
  const stack = [target];
  while (stack.length) {
    const id = stack.pop()!;
    // In `node` mode a pinned node (other than the target) ends the walk: its pin is its output.
    if (mode === "node" && id !== target && pinned(flow, id)) continue;
    for (const e of parents.get(id) ?? []) {
      if (keep.has(e.from.node)) continue;
      keep.add(e.from.node);
      stack.push(e.from.node);
    }
  }
  const edges = flow.edges.filter((e) => keep.has(e.from.node) && keep.has(e.to.node));
  const reuse = new Set<string>();
  if (mode === "node") {
    // The trigger never has an effect: it answers from the earlier run's record when there is one.
    for (const id of keep) if (id !== target && id !== triggerId && !pinned(flow, id)) reuse.add(id);
    // A pinned node whose inputs were cut off still has to be reached: wire it from the trigger.
    for (const id of keep) {
      if (id === target || id === triggerId || !pinned(flow, id)) continue;
      if (!edges.some((e) => e.to.node === id) && triggerId)
        edges.push({ from: { node: triggerId, port: "main" }, to: { node: id, port: "main" } });
    }
    if (triggerId) keep.add(triggerId);
  }
  return {
    flow: { ...flow, nodes: flow.nodes.filter((n) => keep.has(n.id)), edges },
    reuse,
  };
}
