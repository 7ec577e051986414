/**
 * Save- and activation-time check of agent nodes: `agent_ref` must name a loaded definition. Run
 * through the engine's `validateFlow({ extraCheck })`, so the problem appears where every other
 * node problem does (editor, REST, CLI import).
 */
import type { FlowNode, Problem } from "@switchyard/contracts/flow";

/** The node type whose config names an agent (the nodes package's `agent` node). */
const AGENT_NODE_TYPE = "agent";

/** A per-node check for `validateFlow`: flags an agent node whose `agent_ref` is not loaded. */
export function agentRefCheck(known: ReadonlyMap<string, unknown>): (node: FlowNode) => Problem[] {
  return (node) => {
    if (node.type !== AGENT_NODE_TYPE) return [];
    const ref = (node.config as { agent_ref?: unknown } | undefined)?.agent_ref;
    // A missing or non-string ref is the config schema's problem; an expression is only known at run time.
    if (typeof ref !== "string" || ref === "" || ref.startsWith("=")) return [];
    if (known.has(ref)) return [];
    const list = [...known.keys()].sort();
    return [
      {
        code: "unknown_agent",
        message: `node "${node.id}" field "agent_ref": no agent "${ref}" is loaded; ${
          list.length ? `known agents: ${list.join(", ")}` : "no agents are loaded (add one under agents/)"
        }`,
        nodeId: node.id,
        field: "agent_ref",
      },
    ];
  };
}
