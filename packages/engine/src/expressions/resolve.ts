/**
 * Deep resolution of a node's config: every `=expr` string and `{{ }}` template is evaluated against the
 * scope; everything else is returned untouched (and unchanged subtrees keep their identity, so a config
 * without expressions costs one walk and no copies).
 */
import type { ExpressionEvaluator, Item, RunInfo } from "../contract";
import { NodeError } from "../errors";
import { createExpressionEvaluator, expressionFailure } from "./evaluator";
import { interpolate, isExpressionString, parseConfigString } from "./template";

/** What an expression can see. Items appear as their `json`. */
export interface ExpressionScope {
  /** The current item's json (per-item nodes), else the first input item's json. */
  item: Record<string, unknown> | undefined;
  items: Record<string, unknown>[];
  /** The trigger payload json. */
  trigger: Record<string, unknown> | undefined;
  /** Outputs of nodes that already ran in this run: `nodes.<id>.items` / `nodes.<id>.item`. */
  nodes: Record<string, { items: Record<string, unknown>[]; item: Record<string, unknown> | undefined }>;
  run: RunInfo;
  [key: string]: unknown;
}

export interface ResolveOptions {
  evaluator?: ExpressionEvaluator;
  /** Named in error messages. */
  nodeId?: string;
}

let defaultEvaluator: ExpressionEvaluator | undefined;

export async function resolveConfig<T>(config: T, scope: Record<string, unknown>, opts: ResolveOptions = {}) {
  defaultEvaluator ??= createExpressionEvaluator();
  const evaluator = opts.evaluator ?? defaultEvaluator;
  return (await resolveValue(config, scope, evaluator, opts.nodeId, "")) as T;
}

async function resolveValue(
  value: unknown,
  scope: Record<string, unknown>,
  evaluator: ExpressionEvaluator,
  nodeId: string | undefined,
  path: string,
): Promise<unknown> {
  if (typeof value === "string") {
    return isExpressionString(value) || value.startsWith("==")
      ? resolveString(value, scope, evaluator, nodeId, path)
      : value;
  }
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const r = await resolveValue(value[i], scope, evaluator, nodeId, join(path, String(i)));
      if (r !== value[i]) {
        out ??= value.slice();
        out[i] = r;
      }
    }
    return out ?? value;
  }
  if (value !== null && typeof value === "object" && isPlainObject(value)) {
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      const r = await resolveValue(v, scope, evaluator, nodeId, join(path, key));
      if (r !== v) {
        out ??= { ...(value as Record<string, unknown>) };
        out[key] = r;
      }
    }
    return out ?? value;
  }
  return value;
}

async function resolveString(
  text: string,
  scope: Record<string, unknown>,
  evaluator: ExpressionEvaluator,
  nodeId: string | undefined,
  field: string,
): Promise<unknown> {
  const parsed = parseConfigString(text);
  if (parsed.kind === "literal") return parsed.value;
  if (parsed.kind === "error") {
    const node = nodeId ? `node "${nodeId}" ` : "";
    throw new NodeError(
      "expression_failed",
      `${node}field "${field}" at position ${parsed.offset + 1}: ${parsed.message}`,
      {
        nodeId,
        field,
      },
    );
  }
  if (parsed.kind === "expression") {
    try {
      return await evaluator.evaluate(parsed.source, scope);
    } catch (err) {
      throw expressionFailure(err, { nodeId, field, offset: parsed.offset, text });
    }
  }
  let out = "";
  for (const part of parsed.parts) {
    if ("text" in part) {
      out += part.text;
      continue;
    }
    try {
      out += interpolate(await evaluator.evaluate(part.source, scope));
    } catch (err) {
      throw expressionFailure(err, { nodeId, field, offset: part.offset, text });
    }
  }
  return out;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** True when any string in the value is an expression or template (lets per-item nodes parse config once). */
export function hasExpressions(value: unknown): boolean {
  if (typeof value === "string") return isExpressionString(value) || value.startsWith("==");
  if (Array.isArray(value)) return value.some(hasExpressions);
  if (value !== null && typeof value === "object") return Object.values(value).some(hasExpressions);
  return false;
}

/** Every expression string in a config, with its dotted path (for validation). */
export function collectExpressions(
  value: unknown,
  path: (string | number)[] = [],
): { path: (string | number)[]; text: string }[] {
  const found: { path: (string | number)[]; text: string }[] = [];
  const visit = (v: unknown, p: (string | number)[], depth: number) => {
    if (depth > 64) return;
    if (typeof v === "string") {
      if (isExpressionString(v)) found.push({ path: p, text: v });
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) visit(v[i], [...p, i], depth + 1);
    } else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) visit(x, [...p, k], depth + 1);
    }
  };
  visit(value, path, 0);
  return found;
}

/** Builds the scope for one evaluation; `nodes` is shared and built lazily by the executor. */
export function buildScope(args: {
  item: Item | undefined;
  items: Item[];
  trigger: Item[] | undefined;
  nodes: ExpressionScope["nodes"];
  run: RunInfo;
}): ExpressionScope {
  return {
    item: args.item?.json,
    items: args.items.map((i) => i.json),
    trigger: args.trigger?.[0]?.json,
    nodes: args.nodes,
    run: args.run,
  };
}
