/**
 * The flow file: a flow definition plus the name and description it is imported under. Shared by the
 * REST API (bodies, /schema/flow.json) and the CLI (`flow validate`, `flow import`, `flow export`).
 */
import {
  edgeId,
  FlowDefinition,
  type NodeRegistry,
  type ValidateOptions,
  validateFlow,
} from "@switchyard/engine";
import { z } from "zod";
import type { Problem as ApiProblem } from "../../errors/codes";

export const flowName = z
  .string()
  .trim()
  .min(1, "give the flow a name")
  .max(200, "name must be at most 200 characters");
export const flowDescription = z.string().max(2000, "description must be at most 2000 characters");

export const flowFile = FlowDefinition.extend({
  $schema: z
    .string()
    .optional()
    .describe("Editors may point this at /api/v1/schema/flow.json; ignored on import"),
  name: flowName.optional().describe("Name the flow gets on import (default: the file name)"),
  description: flowDescription.optional(),
});
export type FlowFile = z.output<typeof flowFile>;

/** JSON Schema of a flow file as people write it (fields with defaults are optional). */
export function flowFileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(flowFile, { io: "input" }) as Record<string, unknown>;
  return { ...schema, title: "Switchyard flow", description: "A Switchyard flow file (docs/flow-format.md)" };
}

/** The definition part of a parsed flow file (what is stored as a version). */
export function definitionOf(file: FlowFile): FlowDefinition {
  const { $schema: _s, name: _n, description: _d, ...definition } = file;
  return definition;
}

/**
 * Every problem the engine finds in a definition that passed the schema, each named by its path in
 * the file (`nodes.2.config.url`), so a person can find it without knowing node ids by heart.
 */
export function flowProblems(
  definition: FlowDefinition,
  registry: NodeRegistry,
  prefix = "",
  checks: ValidateOptions = {},
): ApiProblem[] {
  const at = (p: string) => [prefix, p].filter(Boolean).join(".");
  return validateFlow(definition, registry, checks).map((p) => {
    let path = at(p.code === "flow_invalid" ? (p.field ?? "") : "");
    // An edge problem (bad port, dangling end, cycle) names the edge to fix, even when it also names a node.
    const edgeIndex =
      p.edgeId === undefined ? -1 : definition.edges.findIndex((e, index) => edgeId(e, index) === p.edgeId);
    const nodeIndex = p.nodeId === undefined ? -1 : definition.nodes.findIndex((n) => n.id === p.nodeId);
    if (p.code !== "flow_invalid" && edgeIndex >= 0) path = at(`edges.${edgeIndex}`);
    else if (p.code !== "flow_invalid" && nodeIndex >= 0)
      path = at(`nodes.${nodeIndex}${p.field ? `.config.${p.field}` : ""}`);
    return {
      path,
      message: p.message,
      code: p.code,
      ...(p.nodeId !== undefined ? { nodeId: p.nodeId } : {}),
      ...(p.edgeId !== undefined ? { edgeId: p.edgeId } : {}),
    };
  });
}

export type CheckedFlow =
  | { ok: true; file: FlowFile; definition: FlowDefinition }
  | { ok: false; problems: ApiProblem[] };

/** Schema first (every issue), then the engine's checks (every problem): the whole list in one go. */
export function checkFlowFile(
  value: unknown,
  registry: NodeRegistry,
  checks: ValidateOptions = {},
): CheckedFlow {
  const parsed = flowFile.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => ({
        path: i.path.map(String).join("."),
        message: i.message,
        code: "flow_invalid",
      })),
    };
  }
  const definition = definitionOf(parsed.data);
  const problems = flowProblems(definition, registry, "", checks);
  return problems.length ? { ok: false, problems } : { ok: true, file: parsed.data, definition };
}
