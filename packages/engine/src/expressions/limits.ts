/**
 * What one evaluation may cost, and the per-step check that enforces it. JSONata checks its wall-clock
 * timeout only when a step starts; a value built in one native call (a concatenation, `$string` of a
 * shared structure, a range) is bounded here, by size, after every step and before the calls that
 * would flatten it.
 */
import { MAX_JSON_DEPTH } from "../json/depth";
import { NonRetryableError } from "../errors";
import { dataSize, isFunctionValue } from "./plain-data";

export interface ExpressionLimits {
  /** Wall-clock limit of one evaluation, in ms. */
  timeoutMs: number;
  /** Maximum evaluation depth (deep recursion without tail calls). */
  maxDepth: number;
  /** Evaluation steps (JSONata AST nodes evaluated, plus regex searches) per evaluation. */
  maxSteps: number;
  /** Longest string a step may produce, and the largest JSON size of a value it builds, in UTF-16 units. */
  maxStringLength: number;
  /** Most entries of an array (or matches of a regex) a step may produce. */
  maxArrayLength: number;
  /** Longest string a regex may search (one search cannot be interrupted). */
  maxRegexInputLength: number;
}

export const defaultExpressionLimits: ExpressionLimits = {
  timeoutMs: 1000,
  maxDepth: 500,
  maxSteps: 1_000_000,
  maxStringLength: 10_000_000,
  maxArrayLength: 1_000_000,
  maxRegexInputLength: 1_000_000,
};

/** A bound of the sandbox was hit: the expression cannot succeed on this input, so no retry. */
export class ExpressionLimitError extends NonRetryableError {
  override readonly name: string = "ExpressionLimitError";
  /** 1-based position in the expression source, when known. */
  position: number | undefined;
  constructor(message: string, position?: number) {
    super("expression_limit", message);
    this.position = position;
  }
}

/** Per-evaluation state, shared by the step hook and the regex engine of one evaluation. */
export interface Budget {
  steps: number;
  readonly deadline: number;
  readonly limits: ExpressionLimits;
}

export function newBudget(limits: ExpressionLimits): Budget {
  return { steps: 0, deadline: Date.now() + limits.timeoutMs, limits };
}

/** Counts one unit of work; throws once the evaluation has done more than `maxSteps`. */
export function chargeStep(budget: Budget, position?: number): void {
  if (++budget.steps > budget.limits.maxSteps)
    throw new ExpressionLimitError(
      `expression took more than ${budget.limits.maxSteps} evaluation steps (maxSteps)`,
      position,
    );
}

export function tooLongString(length: number, limits: ExpressionLimits, position?: number) {
  return new ExpressionLimitError(
    `string of ${length} characters is longer than ${limits.maxStringLength} (maxStringLength)`,
    position,
  );
}

export function tooLongArray(length: number, limits: ExpressionLimits, position?: number) {
  return new ExpressionLimitError(
    `array of ${length} entries is longer than ${limits.maxArrayLength} (maxArrayLength)`,
    position,
  );
}

// Steps whose result is a value another step already produced and measured (or scope data).
const passThrough = new Set([
  "variable",
  "block",
  "condition",
  "bind",
  "name",
  "string",
  "number",
  "value",
  "regex",
  "lambda",
  "parent",
]);

/** Checks one step's result: strings and arrays by length, built structures by their JSON size. */
export function checkStep(
  expr: { type?: string; group?: unknown; position?: number },
  value: unknown,
  limits: ExpressionLimits,
): void {
  if (typeof value === "string") {
    if (value.length > limits.maxStringLength) throw tooLongString(value.length, limits, expr.position);
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value) && value.length > limits.maxArrayLength)
    throw tooLongArray(value.length, limits, expr.position);
  if (passThrough.has(expr.type as string) && expr.group === undefined) return;
  jsonSizeWithin(value, limits, expr.position);
}

/**
 * Estimated JSON size of a value an expression built, stopping as soon as it passes the bound, so a
 * structure sharing one object many times (size doubling per step) costs at most the bound to measure.
 * Scope data was measured once (memoised); the first reference to a data object is free, as it exists
 * already, each further one counts its size. Functions count as nothing (`$string` prints them as "").
 */
export function jsonSizeWithin(
  value: unknown,
  limits: ExpressionLimits,
  position?: number,
  pretty = false,
): number {
  // The walk is synchronous and never re-entered: one shared state, no allocation per call.
  walk.total = 0;
  walk.max = limits.maxStringLength;
  walk.pretty = pretty;
  try {
    visit(value, 0);
  } catch (err) {
    if (err === tooBig)
      throw new ExpressionLimitError(
        `value built by the expression is larger than ${walk.max} characters as JSON (maxStringLength)`,
        position,
      );
    if (err === tooDeep)
      throw new ExpressionLimitError(`value nests deeper than ${MAX_JSON_DEPTH} levels`, position);
    throw err;
  } finally {
    if (walk.seenData.size > 0) walk.seenData.clear();
  }
  return walk.total;
}

const walk = { total: 0, max: 0, pretty: false, seenData: new Set<object>() };
const tooBig = Symbol("too big");
const tooDeep = Symbol("too deep");

function visit(v: unknown, depth: number): void {
  if (typeof v === "string") walk.total += v.length + 2;
  else if (v === null || typeof v !== "object") walk.total += 5;
  else {
    const known = walk.pretty ? undefined : dataSize(v);
    if (known !== undefined) {
      if (walk.seenData.has(v)) walk.total += known;
      else walk.seenData.add(v);
    } else if (isFunctionValue(v)) {
      walk.total += 2;
    } else {
      if (depth > MAX_JSON_DEPTH) throw tooDeep;
      // Pretty-printing puts every entry on its own line, indented two spaces per level.
      const indent = walk.pretty ? 2 * depth + 3 : 0;
      walk.total += 2 + indent;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          walk.total += 1 + indent;
          visit(v[i], depth + 1);
        }
      } else {
        const keys = Object.keys(v);
        for (let i = 0; i < keys.length; i++) {
          walk.total += keys[i]!.length + 3 + indent;
          visit((v as Record<string, unknown>)[keys[i]!], depth + 1);
        }
      }
    }
  }
  if (walk.total > walk.max) throw tooBig;
}
