/**
 * Helpers only the editor needs. The flow model, problems and catalogue entries are
 * @switchyard/contracts' (imported as types: nothing of the engine reaches the browser bundle).
 */
import type { FlowDefinition, FlowEdge, Problem, StepStatus } from "@switchyard/contracts";

/** One snapshot of the document (a parsed flow, defaults filled); the undo history is a list of these. */
export type FlowDoc = FlowDefinition;

/** A node on the canvas: not started yet, running, or how its step ended. */
export type NodeRunStatus = "pending" | "running" | StepStatus;

/** The validator names the node (and field) in its message; shown on that node or field it is noise. */
export function shortMessage(p: Problem): string {
  const field = /^node "[^"]*" field "([^"]*)"(.*)$/.exec(p.message);
  if (field) return (field[2] ?? "").replace(/^: /, "") || p.message;
  return p.message.replace(/^node "[^"]*"(: )?/, "") || p.message;
}

/** React Flow id of an edge: its own id, or one derived from its ends (unique because duplicates are refused). */
export function edgeKey(edge: FlowEdge): string {
  return edge.id ?? `${edge.from.node}:${edge.from.port}->${edge.to.node}:${edge.to.port}`;
}

/** Notes share the canvas with nodes; a prefix keeps their ids apart. */
export const NOTE_PREFIX = "note:";
