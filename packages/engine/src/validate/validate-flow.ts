/**
 * Save-time and pre-run validation. Collects every problem instead of stopping at the first, and never
 * throws: the input may be any JSON a client sent.
 */
import type { AnyNodeType, NodeRegistry } from "../contract";
import { compileGraph, edgeId, type FlowGraph, reachableFrom } from "../flow/graph";
import { FlowDefinition, type FlowNode, type Problem, type ProblemCode } from "@switchyard/contracts/flow";
import { checkNodeConfig } from "./config-check";

export type { Problem, ProblemCode };

export interface ValidateOptions {
  /** Extra per-node checks (the agent package flags unknown `agent_ref`s here). */
  extraCheck?: (node: FlowNode, type: AnyNodeType | undefined) => Problem[];
}

export function validateFlow(flow: unknown, registry: NodeRegistry, opts: ValidateOptions = {}): Problem[] {
  try {
    const parsed = FlowDefinition.safeParse(flow);
    if (!parsed.success) {
      return parsed.error.issues.map((i) => ({
        code: "flow_invalid",
        message: i.message,
        field: i.path.map(String).join("."),
      }));
    }
    const graph = compileGraph(parsed.data, registry);
    return [...checkNodes(graph, opts), ...checkEdges(graph), ...checkShape(graph)];
  } catch (err) {
    return [
      { code: "internal", message: `validation failed unexpectedly: ${(err as Error)?.message ?? err}` },
    ];
  }
}

function checkNodes(graph: FlowGraph, opts: ValidateOptions): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const node of graph.flow.nodes) {
    if (seen.has(node.id)) {
      problems.push({
        code: "duplicate_node_id",
        message: `node id "${node.id}" is used twice`,
        nodeId: node.id,
      });
      continue;
    }
    seen.add(node.id);
    const def = graph.types.get(node.id);
    if (!def) {
      problems.push({
        code: "unknown_node_type",
        message: `unknown node type "${node.type}"`,
        nodeId: node.id,
      });
    } else {
      problems.push(...checkNodeConfig(node, def));
      if (def.kind === "action" && def.check) problems.push(...def.check(node));
    }
    if (opts.extraCheck) {
      try {
        problems.push(...opts.extraCheck(node, def));
      } catch (err) {
        problems.push({
          code: "check_failed",
          message: `extra check failed: ${(err as Error)?.message ?? err}`,
          nodeId: node.id,
        });
      }
    }
  }
  return problems;
}

/** Output ports a node can emit on: its declared ports, plus `error` when it routes errors. */
export function outputPorts(node: FlowNode, def: AnyNodeType): readonly string[] {
  return node.onError === "route" ? [...def.ports, "error"] : def.ports;
}

function checkEdges(graph: FlowGraph): Problem[] {
  const problems: Problem[] = [];
  // Every edge's id, given or defaulted ("e3" for the fourth): problems name edges by it, so it must be one edge's.
  const ids = new Set<string>();
  // Edges by what they connect: a second edge between the same two ports sends every item through twice.
  const links = new Map<string, string>();
  graph.flow.edges.forEach((edge, index) => {
    const id = edgeId(edge, index);
    if (ids.has(id))
      problems.push({ code: "duplicate_edge_id", message: `edge id "${id}" is used twice`, edgeId: id });
    ids.add(id);
    const link = JSON.stringify([edge.from.node, edge.from.port, edge.to.node, edge.to.port]);
    const first = links.get(link);
    if (first !== undefined)
      problems.push({
        code: "duplicate_edge",
        message: `edge "${id}" repeats edge "${first}" from "${edge.from.node}" (${edge.from.port}) to "${edge.to.node}" (${edge.to.port}): every item would go through twice`,
        edgeId: id,
      });
    else links.set(link, id);
    for (const [end, label] of [
      [edge.from, "source"],
      [edge.to, "target"],
    ] as const) {
      if (!graph.nodes.has(end.node)) {
        problems.push({
          code: "dangling_edge",
          message: `edge ${label} node "${end.node}" does not exist`,
          edgeId: id,
        });
      }
    }
    const fromNode = graph.nodes.get(edge.from.node);
    const fromDef = graph.types.get(edge.from.node);
    if (fromNode && fromDef && !outputPorts(fromNode, fromDef).includes(edge.from.port)) {
      problems.push({
        code: "unknown_port",
        message: `node "${fromNode.id}" has no output port "${edge.from.port}"`,
        edgeId: id,
        nodeId: fromNode.id,
      });
    }
    const toDef = graph.types.get(edge.to.node);
    if (toDef) {
      const inputs = toDef.kind === "trigger" ? [] : toDef.inputs;
      if (!inputs.includes(edge.to.port)) {
        problems.push({
          code: "unknown_port",
          message:
            toDef.kind === "trigger"
              ? `trigger "${edge.to.node}" cannot have incoming edges`
              : `node "${edge.to.node}" has no input port "${edge.to.port}"`,
          edgeId: id,
          nodeId: edge.to.node,
        });
      }
    }
  });
  return problems;
}

function checkShape(graph: FlowGraph): Problem[] {
  const problems: Problem[] = [];
  if (graph.triggers.length === 0) {
    problems.push({ code: "no_trigger", message: "the flow has no trigger node" });
  } else if (graph.triggers.length > 1) {
    for (const id of graph.triggers) {
      problems.push({ code: "multiple_triggers", message: "a flow has exactly one trigger", nodeId: id });
    }
  }
  for (const edge of graph.edges) {
    if (!graph.backEdges.has(edge.index)) continue;
    const def = graph.types.get(edge.to.node);
    if (def?.kind === "action" && def.loop) continue;
    problems.push({
      code: "cycle",
      message: `edge from "${edge.from.node}" to "${edge.to.node}" closes a cycle that does not return into a loop node`,
      edgeId: edge.id,
      nodeId: edge.to.node,
    });
  }
  if (graph.triggers.length === 1) {
    const reachable = reachableFrom(graph, graph.triggers[0]!);
    for (const id of graph.order) {
      if (!reachable.has(id)) {
        problems.push({
          code: "unreachable_node",
          message: `node "${id}" cannot be reached from the trigger`,
          nodeId: id,
        });
      }
    }
  }
  return problems;
}
