/**
 * Checks one node's config against its type: version, zod schema (ignoring fields that hold expressions,
 * which are checked after resolution at run time) and the syntax of every expression.
 */
import type { AnyNodeType } from "../contract";
import { NodeError } from "../errors";
import { checkExpressionSyntax } from "../expressions/evaluator";
import { splitRawFields } from "../expressions/raw-fields";
import { collectExpressions } from "../expressions/resolve";
import { isExpressionString, parseConfigString } from "../expressions/template";
import type { FlowNode } from "@switchyard/contracts/flow";
import type { Problem } from "./validate-flow";

/** Brings a config saved with an older typeVersion up to date; throws a NodeError when impossible. */
export function migrateConfig(node: FlowNode, def: AnyNodeType): unknown {
  if (node.typeVersion > def.typeVersion) {
    throw new NodeError(
      "config_invalid",
      `node "${node.id}" uses ${node.type} version ${node.typeVersion}, newer than the installed ${def.typeVersion}`,
      { nodeId: node.id },
    );
  }
  if (node.typeVersion === def.typeVersion || !def.migrate) return node.config;
  try {
    return def.migrate(node.config, node.typeVersion);
  } catch (err) {
    throw new NodeError(
      "config_invalid",
      `node "${node.id}": config migration failed: ${(err as Error)?.message}`,
      {
        nodeId: node.id,
        cause: err,
      },
    );
  }
}

export function checkNodeConfig(node: FlowNode, def: AnyNodeType): Problem[] {
  let config: unknown;
  try {
    config = migrateConfig(node, def);
  } catch (err) {
    const code = node.typeVersion > def.typeVersion ? "unsupported_type_version" : "config_invalid";
    return [{ code, message: (err as Error).message, nodeId: node.id }];
  }
  const problems: Problem[] = [];
  let result: ReturnType<AnyNodeType["config"]["safeParse"]> | undefined;
  try {
    result = def.config.safeParse(config);
  } catch (err) {
    problems.push({
      code: "config_invalid",
      message: `config check threw: ${(err as Error)?.message ?? err}`,
      nodeId: node.id,
    });
  }
  if (result && !result.success) {
    for (const issue of result.error.issues) {
      if (holdsExpression(config, issue.path) && !isRawPath(def, issue.path)) continue;
      const field = issue.path.map(String).join(".");
      problems.push({
        code: "config_invalid",
        message: `node "${node.id}" field "${field || "(config)"}": ${issue.message}`,
        nodeId: node.id,
        field,
      });
    }
  }
  const { dynamic } = splitRawFields(config, def.kind === "action" ? def.rawFields : undefined);
  for (const found of collectExpressions(dynamic)) problems.push(...checkSyntax(node.id, found));
  return problems;
}

/** True when the value at `path`, or any value on the way to it, is an expression string. */
function holdsExpression(config: unknown, path: readonly PropertyKey[]): boolean {
  let value: unknown = config;
  for (const key of path) {
    if (isExpressionString(value)) return true;
    if (value === null || typeof value !== "object") return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return isExpressionString(value);
}

function checkSyntax(nodeId: string, found: { path: (string | number)[]; text: string }): Problem[] {
  const field = found.path.join(".");
  const parsed = parseConfigString(found.text);
  const at = (pos: number, message: string): Problem => ({
    code: "expression_invalid",
    message: `node "${nodeId}" field "${field}" at position ${pos}: ${message}`,
    nodeId,
    field,
  });
  if (parsed.kind === "error") return [at(parsed.offset + 1, parsed.message)];
  const sources =
    parsed.kind === "expression"
      ? [{ source: parsed.source, offset: parsed.offset }]
      : parsed.kind === "template"
        ? parsed.parts.flatMap((p) => ("source" in p ? [p] : []))
        : [];
  const problems: Problem[] = [];
  for (const { source, offset } of sources) {
    if (source.trim() === "") {
      problems.push(at(offset + 1, "empty expression"));
      continue;
    }
    const error = checkExpressionSyntax(source);
    if (error) problems.push(at(offset + error.position, error.message));
  }
  return problems;
}

function isRawPath(def: AnyNodeType, path: readonly PropertyKey[]): boolean {
  return def.kind === "action" && path.length > 0 && (def.rawFields ?? []).includes(String(path[0]));
}
