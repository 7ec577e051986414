/**
 * One attempt of one node: resolve config expressions (once, or per item), parse the config with the
 * type's schema, call `execute`, and check what came back. Every failure becomes a NodeError here.
 */
import type {
  ExpressionEvaluator,
  Item,
  NodeContext,
  NodeDefinition,
  NodeResult,
  RunInfo,
} from "../contract";
import { NodeError, NonRetryableError, toNodeError } from "../errors";
import { splitRawFields } from "../expressions/raw-fields";
import { hasExpressions, resolveConfig } from "../expressions/resolve";
import type { FlowNode } from "@switchyard/contracts/flow";
import { migrateConfig } from "../validate/config-check";
import type { PartialResult } from "./types";

export type NodeOutcome =
  | { kind: "ok"; outputs: Record<string, Item[]> }
  | { kind: "wait"; until: string; outputs: Record<string, Item[]> }
  | { kind: "error"; error: NodeError; partial?: PartialResult };

export interface NodeRunArgs {
  node: FlowNode;
  def: NodeDefinition;
  input: Item[];
  inputsByPort?: Record<string, Item[]>;
  ctx: NodeContext;
  evaluator: ExpressionEvaluator;
  /** Shared, read-only parts of the expression scope; `nodes()` is called only when an expression needs it. */
  scope: { trigger: Record<string, unknown> | undefined; nodes: () => Record<string, unknown>; run: RunInfo };
  /** Checked between items without creating the signal (see StepAbort); defaults to `ctx.signal`. */
  abort?: { readonly aborted: boolean; readonly reason: unknown };
}

export async function runNode(args: NodeRunArgs): Promise<NodeOutcome> {
  const { node, def, input } = args;
  let config: unknown;
  try {
    config = migrateConfig(node, def);
  } catch (err) {
    return { kind: "error", error: toNodeError(err, node.id) };
  }
  const itemsJson = input.map((i) => i.json);
  // A thunk: the scope is built only when a config holds expressions.
  const scopeFor = (item: Item | undefined) => () => ({
    trigger: args.scope.trigger,
    nodes: args.scope.nodes(),
    run: args.scope.run,
    item: item?.json,
    items: itemsJson,
  });

  if (def.runMode === "once") {
    try {
      const parsed = await prepareConfig(args, config, scopeFor(input[0]));
      const result = await def.execute({
        config: parsed,
        input,
        ctx: args.ctx,
        ...(args.inputsByPort ? { inputsByPort: args.inputsByPort } : {}),
        resolveForItem: (value, item) =>
          resolveConfig(value, scopeFor(item)(), { evaluator: args.evaluator, nodeId: node.id }),
      });
      return normalise(result, def, node.id, {});
    } catch (err) {
      return {
        kind: "error",
        error: toNodeError(err, node.id),
        partial: { outputs: {}, failedItems: input },
      };
    }
  }

  // Per item: a config without expressions is parsed once for all items.
  let shared: unknown;
  const dynamic = isDynamic(splitRawFields(config, def.rawFields).dynamic);
  const outputs: Record<string, Item[]> = {};
  const failedItems: Item[] = [];
  let firstError: NodeError | undefined;
  let until: string | undefined;
  for (let i = 0; i < input.length; i++) {
    const item = input[i]!;
    try {
      const abort = args.abort ?? args.ctx.signal;
      if (abort.aborted) throw toNodeError(abort.reason, node.id);
      if (shared === undefined || dynamic) shared = await prepareConfig(args, config, scopeFor(item));
      const result = await def.execute({ config: shared, input: [item], ctx: args.ctx });
      const one = normalise(result, def, node.id, outputs);
      if (one.kind === "error") throw one.error;
      if (one.kind === "wait" && (until === undefined || one.until > until)) until = one.until;
    } catch (err) {
      const error = toNodeError(err, node.id);
      error.itemIndex ??= i;
      if (node.onError === "stop" || error.code === "cancelled" || error.code === "timeout") {
        return { kind: "error", error };
      }
      firstError ??= error;
      failedItems.push(item);
    }
  }
  if (firstError) return { kind: "error", error: firstError, partial: { outputs, failedItems } };
  return until === undefined ? { kind: "ok", outputs } : { kind: "wait", until, outputs };
}

// Whether a config object holds expressions, remembered per (immutable) flow config object.
const dynamicConfigs = new WeakMap<object, boolean>();
function isDynamic(config: unknown): boolean {
  if (config === null || typeof config !== "object") return hasExpressions(config);
  let known = dynamicConfigs.get(config);
  if (known === undefined) {
    known = hasExpressions(config);
    dynamicConfigs.set(config, known);
  }
  return known;
}

// Parsed configs of static (expression-free) node configs: flows are immutable, so parse once.
const parsedStatic = new WeakMap<object, unknown>();

async function prepareConfig(
  args: NodeRunArgs,
  config: unknown,
  scope: () => Record<string, unknown>,
): Promise<unknown> {
  const cacheable =
    config !== null &&
    typeof config === "object" &&
    !isDynamic(splitRawFields(config, args.def.rawFields).dynamic);
  if (cacheable && parsedStatic.has(config as object)) return parsedStatic.get(config as object);
  const result = await parseFresh(args, config, scope);
  if (cacheable) parsedStatic.set(config as object, result);
  return result;
}

async function parseFresh(
  args: NodeRunArgs,
  config: unknown,
  scope: () => Record<string, unknown>,
): Promise<unknown> {
  const { dynamic, raw } = splitRawFields(config, args.def.rawFields);
  const evaluated = isDynamic(dynamic)
    ? await resolveConfig(dynamic, scope(), { evaluator: args.evaluator, nodeId: args.node.id })
    : dynamic;
  const resolved = raw ? { ...(evaluated as Record<string, unknown>), ...raw } : evaluated;
  return parseNodeConfig(args.def, resolved, args.node.id);
}

/**
 * The one place a node's config meets its schema (after expressions are resolved): a node's `execute` gets
 * the parsed value and never parses again, so one mistake has one error, naming the node and the field.
 */
export function parseNodeConfig(
  def: Pick<NodeDefinition, "config">,
  resolved: unknown,
  nodeId: string,
): unknown {
  const parsed = def.config.safeParse(resolved);
  if (parsed.success) return parsed.data;
  // Every problem, each with its field: a form shows them all at once, so the run error should too.
  const fieldOf = (issue: { path: PropertyKey[] }) => issue.path.map(String).join(".") || "(config)";
  const field = parsed.error.issues[0]!.path.map(String).join(".");
  const problems = parsed.error.issues.map((i) => `field "${fieldOf(i)}": ${i.message}`).join("; ");
  throw new NonRetryableError("config_invalid", `node "${nodeId}" ${problems}`, { nodeId, field });
}

/** Checks a node's answer and merges its items into `into` by port. */
function normalise(
  result: NodeResult,
  def: NodeDefinition,
  nodeId: string,
  into: Record<string, Item[]>,
): NodeOutcome {
  if (result === null || typeof result !== "object") {
    return { kind: "error", error: bug(nodeId, "execute returned no result") };
  }
  const add = (port: string, items: unknown): NodeError | undefined => {
    if (!def.ports.includes(port)) return bug(nodeId, `execute answered on undeclared port "${port}"`);
    if (!Array.isArray(items)) return bug(nodeId, `execute returned non-array items for port "${port}"`);
    for (const it of items) {
      if (
        it === null ||
        typeof it !== "object" ||
        typeof (it as Item).json !== "object" ||
        (it as Item).json === null
      ) {
        return bug(nodeId, "execute returned an item without a json object");
      }
    }
    into[port] ??= [];
    const list = into[port];
    for (const it of items as Item[]) list.push(it);
    return undefined;
  };
  if ("outputs" in result) {
    for (const [port, items] of Object.entries(result.outputs ?? {})) {
      const err = add(port, items);
      if (err) return { kind: "error", error: err };
    }
    return { kind: "ok", outputs: into };
  }
  const port = "port" in result && result.port !== undefined ? result.port : (def.ports[0] ?? "main");
  const err = add(port, result.items);
  if (err) return { kind: "error", error: err };
  if ("wait" in result) {
    const until = result.wait?.until;
    if (typeof until !== "string" || Number.isNaN(Date.parse(until))) {
      return { kind: "error", error: bug(nodeId, "execute returned a wait without a valid `until` time") };
    }
    return { kind: "wait", until: new Date(until).toISOString(), outputs: into };
  }
  return { kind: "ok", outputs: into };
}

function bug(nodeId: string, message: string): NodeError {
  return new NodeError("internal", `node "${nodeId}": ${message}`, { nodeId, retryable: false });
}
