/**
 * JSONata evaluation in a sandbox. JSONata itself cannot reach JS globals: property lookups only see
 * own properties (no `constructor`/`__proto__` walks) and we bind no host functions. What remains is
 * resource use, bounded by jsonata's own guardrails (wall-clock timeout checked at every evaluation
 * step, recursion depth) plus caps on the few built-ins that allocate in one native call.
 */
import jsonata from "jsonata";
import type { ExpressionEvaluator } from "../contract";
import { NodeError } from "../errors";
import { compileFast, FALLBACK, type FastExpression } from "./fast-path";
import { lineColumn } from "./template";

export interface ExpressionEvaluatorOptions {
  /** Wall-clock limit of one evaluation. */
  timeoutMs?: number;
  /** Maximum evaluation depth (deep recursion without tail calls). */
  maxDepth?: number;
  /** Compiled expressions kept for reuse. */
  cacheSize?: number;
}

/** A failure to parse or evaluate, with JSONata's code and the 1-based position inside the source. */
export class ExpressionError extends Error {
  override readonly name = "ExpressionError";
  constructor(
    message: string,
    readonly jsonataCode: string | undefined,
    readonly position: number | undefined,
  ) {
    super(message);
  }
}

const MAX_PAD = 1_000_000;

interface JsonataFailure {
  code?: string;
  message?: string;
  position?: number;
  value?: unknown;
}

export function toExpressionError(err: unknown, timeoutMs?: number): ExpressionError {
  const e = (err ?? {}) as JsonataFailure;
  let message = typeof e.message === "string" && e.message ? e.message : String(err);
  if (e.code === "D1012") message = `expression ran longer than ${timeoutMs ?? e.value} ms (infinite loop?)`;
  if (e.code === "D1011") message = "expression recursed too deeply";
  return new ExpressionError(message, e.code, typeof e.position === "number" ? e.position : undefined);
}

function compile(source: string, options: { timeout: number; stack: number }): jsonata.Expression {
  const expr = jsonata(source, options);
  // $pad builds its string in one native call the timeout cannot interrupt; cap its width.
  expr.registerFunction(
    "pad",
    (str: string | undefined, width: number, char?: string) => {
      if (str === undefined) return undefined;
      if (Math.abs(width) > MAX_PAD) throw { code: "D3999", message: `$pad width is limited to ${MAX_PAD}` };
      const fill = char === undefined || char === "" ? " " : char;
      const missing = Math.abs(width) - [...str].length;
      if (missing <= 0) return str;
      const padding = fill.repeat(Math.ceil(missing / fill.length)).slice(0, missing);
      return width < 0 ? padding + str : str + padding;
    },
    "<sns?:s>",
  );
  return expr;
}

type SyntaxResult = { message: string; position: number } | undefined;
// Validation runs at save and before every run: remember recent verdicts instead of re-parsing.
const syntaxCache = new Map<string, SyntaxResult>();

/** Returns undefined when the source parses, else the error with its (1-based) position. */
export function checkExpressionSyntax(source: string): SyntaxResult {
  if (syntaxCache.has(source)) return syntaxCache.get(source);
  let result: SyntaxResult;
  try {
    jsonata(source);
  } catch (err) {
    const e = toExpressionError(err);
    result = { message: e.message, position: e.position ?? 0 };
  }
  if (syntaxCache.size >= 2000) syntaxCache.delete(syntaxCache.keys().next().value as string);
  syntaxCache.set(source, result);
  return result;
}

/** Creates the sandboxed evaluator handed to nodes as `ctx.expressions` and used by `resolveConfig`. */
export function createExpressionEvaluator(opts: ExpressionEvaluatorOptions = {}): ExpressionEvaluator {
  const timeout = opts.timeoutMs ?? 1000;
  const stack = opts.maxDepth ?? 500;
  const cacheSize = opts.cacheSize ?? 500;
  const cache = new Map<string, { expr: jsonata.Expression; fast: FastExpression | undefined }>();

  function compiled(source: string) {
    let entry = cache.get(source);
    if (entry) return entry;
    try {
      const expr = compile(source, { timeout, stack });
      entry = { expr, fast: compileFast(expr.ast()) };
    } catch (err) {
      throw toExpressionError(err);
    }
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
    cache.set(source, entry);
    return entry;
  }

  return {
    async evaluate(source, scope) {
      const { expr, fast } = compiled(source);
      if (fast && scope !== null && typeof scope === "object" && !Array.isArray(scope)) {
        const value = fast(scope);
        if (value !== FALLBACK) return toPlain(value);
      }
      let result: unknown;
      try {
        // The scope is both the input document (`item.x`) and variables (`$item.x` inside predicates).
        result = await expr.evaluate(scope, scope);
      } catch (err) {
        throw toExpressionError(err, timeout);
      }
      return toPlain(result);
    },
  };
}

/**
 * JSONata sequences are arrays with marker properties, and lambdas / built-in function objects hold
 * the environment or host implementations: hand back data only. Copies only what must change.
 */
function toPlain(value: unknown, depth = 0): unknown {
  if (typeof value === "function") return undefined;
  if (value === null || typeof value !== "object" || depth > 200) return value;
  if ("_jsonata_lambda" in value || "_jsonata_function" in value) return undefined;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined = (value as { sequence?: boolean }).sequence
      ? Array.from(value)
      : undefined;
    for (let i = 0; i < value.length; i++) {
      const v = toPlain(value[i], depth + 1);
      if (v !== value[i]) {
        out ??= Array.from(value);
        out[i] = v;
      }
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    const p = toPlain(v, depth + 1);
    if (p !== v) {
      out ??= { ...(value as Record<string, unknown>) };
      if (p === undefined) delete out[key];
      else out[key] = p;
    }
  }
  return out ?? value;
}

/** Wraps an expression failure into the node-level error naming node, field and position. */
export function expressionFailure(
  err: unknown,
  where: { nodeId?: string; field: string; offset: number; text: string },
): NodeError {
  const e = err instanceof ExpressionError ? err : toExpressionError(err);
  const pos = e.position === undefined ? undefined : where.offset + e.position;
  const at = pos === undefined ? "" : ` at position ${pos}${lineSuffix(where.text, pos)}`;
  const node = where.nodeId ? `node "${where.nodeId}" ` : "";
  return new NodeError("expression_failed", `${node}field "${where.field}"${at}: ${e.message}`, {
    nodeId: where.nodeId,
    field: where.field,
    cause: err,
  });
}

function lineSuffix(text: string, pos: number): string {
  if (!text.includes("\n")) return "";
  const { line, column } = lineColumn(text, pos - 1);
  return ` (line ${line}, column ${column})`;
}
