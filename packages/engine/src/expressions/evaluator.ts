/**
 * JSONata evaluation in a sandbox. Threat model: an expression's author may be anyone who can edit or
 * import a flow, and the data it reads (webhook bodies, e-mail, HTTP responses, LLM output) is hostile.
 * What this module guarantees, whatever the expression and the data:
 *  - Nothing but data is reachable. The scope is made plain JSON before evaluation (plain-data.ts): a
 *    function, getter, `then`/`toJSON` or prototype a host object carries is gone, so JSONata — which
 *    calls any function it finds and awaits any thenable — has nothing of the host to call. Property
 *    lookups see own properties only, so `constructor`, `__proto__`, `prototype` are data keys or
 *    absent. The only functions bound are JSONata's built-ins and the bounded ones of builtins.ts, and
 *    results handed back are data only (`toPlain`).
 *  - No evaluation can stall or bloat the process. Regexes run on RE2 (regex.ts: linear time; patterns
 *    RE2 cannot run are refused at compile time with their position). Every step is counted and its
 *    result measured (limits.ts: steps, string length, array length, JSON size of built values), the
 *    wall-clock timeout and recursion depth are JSONata's, and built-ins that work in one native call
 *    check their input sizes first. A breach is an `expression_limit` error, never retried.
 * It relies on scope objects not being mutated after the evaluator first saw them (they are memoised).
 */
import jsonata from "jsonata";
import type { ExpressionEvaluator } from "../contract";
import { NodeError } from "../errors";
import { registerBoundedBuiltins } from "./builtins";
import { compileFast, FALLBACK, type FastExpression } from "./fast-path";
import {
  type Budget,
  chargeStep,
  checkStep,
  defaultExpressionLimits,
  type ExpressionLimits,
  ExpressionLimitError,
  newBudget,
} from "./limits";
import { isFunctionValue, plainScope, plainValue } from "./plain-data";
import { checkRange, markRanges, rangeOperands } from "./ranges";
import { type RegexEngineFactory, regexEngineFor, regexProblem } from "./regex";
import { lineColumn } from "./template";

export { defaultExpressionLimits, type ExpressionLimits, ExpressionLimitError } from "./limits";

export interface ExpressionEvaluatorOptions extends Partial<ExpressionLimits> {
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

interface JsonataFailure {
  code?: string;
  message?: string;
  position?: number;
  value?: unknown;
  error?: unknown;
}

// JSONata's own guardrails, reported as limits.
const limitCodes = new Set(["D1011", "D1012", "D2014", "D2015"]);

export function toExpressionError(
  err: unknown,
  limits: ExpressionLimits = defaultExpressionLimits,
): ExpressionError | ExpressionLimitError {
  if (err instanceof ExpressionLimitError) return err;
  const e = (err ?? {}) as JsonataFailure;
  // $eval wraps what failed inside it.
  if ((e.code === "D3120" || e.code === "D3121") && e.error) {
    const inner = toExpressionError(e.error, limits);
    if (inner instanceof ExpressionLimitError) return inner;
  }
  let message = typeof e.message === "string" && e.message ? e.message : String(err);
  const position = typeof e.position === "number" ? e.position : undefined;
  if (e.code === "D1012") message = `expression ran longer than ${limits.timeoutMs} ms (infinite loop?)`;
  if (e.code === "D1011") message = "expression recursed too deeply";
  if (e.code === "D2014" || e.code === "D2015")
    message = `sequence of ${e.value} entries is longer than 10000000 (JSONata's own bound)`;
  // V8's own ceilings (string length, call stack) are limits too.
  if ((e.code && limitCodes.has(e.code)) || err instanceof RangeError)
    return new ExpressionLimitError(message, position);
  return new ExpressionError(message, e.code, position);
}

// JSONata reads `options.RegexEngine` synchronously when an evaluation starts: this hands the
// evaluation its own engine (and so its budget) without a global that concurrent evaluations share.
let handoff: RegexEngineFactory | undefined;

interface ExitEnvironment {
  base: { RegexEngine: RegexEngineFactory };
}

/** Runs after every evaluation step: counts it and bounds what it produced. */
function afterStep(
  expr: { type?: string; position?: number },
  _input: unknown,
  env: ExitEnvironment,
  result: unknown,
) {
  const budget: Budget = env.base.RegexEngine.budget;
  chargeStep(budget, expr.position);
  // A bare host function is never a value: built-ins and lambdas are JSONata's function objects, and
  // only a regex literal evaluates to a host closure. Anything else leaked out of a function object
  // (its `implementation`), so refusing it here means no host code can be called or passed on.
  if (typeof result === "function" && expr.type !== "regex")
    throw new ExpressionError("a host function is not a value an expression can use", "S9901", expr.position);
  checkStep(expr, result, budget.limits);
  const range = rangeOperands.get(expr);
  if (range) checkRange(range, result, budget);
}

function compile(source: string, limits: ExpressionLimits): jsonata.Expression {
  const options = {
    timeout: limits.timeoutMs,
    stack: limits.maxDepth,
    get RegexEngine() {
      return handoff ?? regexEngineFor(newBudget(limits));
    },
  };
  const expr = jsonata(source, options as unknown as jsonata.JsonataOptions);
  const bad = regexProblem(expr.ast());
  if (bad) throw new ExpressionError(bad.message, "S0302", bad.position);
  markRanges(expr.ast());
  registerBoundedBuiltins(expr, limits, source);
  (expr.assign as unknown as (name: symbol, value: unknown) => void)(
    Symbol.for("jsonata.__evaluate_exit"),
    afterStep,
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
    result = regexProblem(jsonata(source).ast());
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
  const { cacheSize = 500, ...given } = opts;
  const limits: ExpressionLimits = { ...defaultExpressionLimits };
  for (const [k, v] of Object.entries(given))
    if (v !== undefined) (limits as unknown as Record<string, number>)[k] = v;
  const cache = new Map<string, { expr: jsonata.Expression; fast: FastExpression | undefined }>();

  function compiled(source: string) {
    let entry = cache.get(source);
    if (entry) return entry;
    try {
      const expr = compile(source, limits);
      entry = { expr, fast: compileFast(expr.ast()) };
    } catch (err) {
      throw toExpressionError(err);
    }
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
    cache.set(source, entry);
    return entry;
  }

  return {
    async evaluate(source, rawScope) {
      const { expr, fast } = compiled(source);
      // The fast path reads only own enumerable data properties, so on the raw scope it reaches what it
      // would reach in the plain scope; a primitive is the answer as it is, an object (it could be a class
      // instance or hold a getter) is made plain on its own. Neither copies nor checks the rest of the
      // scope, a whole webhook payload for `{{ item.body.n + 1 }}` or `{{ item }}`.
      if (fast) {
        const value = fast(rawScope);
        if (value !== FALLBACK)
          return value === null || typeof value !== "object" ? value : toPlain(plainValue(value));
      }
      const scope = plainScope(rawScope);
      let result: unknown;
      try {
        handoff = regexEngineFor(newBudget(limits));
        // The scope is both the input document (`item.x`) and variables (`$item.x` inside predicates).
        const pending = expr.evaluate(scope, scope);
        handoff = undefined;
        result = await pending;
      } catch (err) {
        handoff = undefined;
        throw toExpressionError(err, limits);
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
  if (isFunctionValue(value)) return undefined;
  if (value === null || typeof value !== "object" || depth > 200) return value;
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
  // `{"__proto__": x}` in an expression sets the built object's prototype: hand back own keys only.
  const proto = Object.getPrototypeOf(value);
  let out: Record<string, unknown> | undefined =
    proto === Object.prototype || proto === null ? undefined : { ...(value as Record<string, unknown>) };
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
  const e =
    err instanceof ExpressionError || err instanceof ExpressionLimitError ? err : toExpressionError(err);
  const pos = e.position === undefined ? undefined : where.offset + e.position;
  const at = pos === undefined ? "" : ` at position ${pos}${lineSuffix(where.text, pos)}`;
  const node = where.nodeId ? `node "${where.nodeId}" ` : "";
  const code = e instanceof ExpressionLimitError ? "expression_limit" : "expression_failed";
  return new NodeError(code, `${node}field "${where.field}"${at}: ${e.message}`, {
    nodeId: where.nodeId,
    field: where.field,
    cause: err,
    retryable: false,
  });
}

function lineSuffix(text: string, pos: number): string {
  if (!text.includes("\n")) return "";
  const { line, column } = lineColumn(text, pos - 1);
  return ` (line ${line}, column ${column})`;
}
