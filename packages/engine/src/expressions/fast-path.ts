/**
 * Most config expressions are a literal, a field path (`item.body.n`) or arithmetic on those. JSONata
 * evaluates even these through its async evaluator (an environment, a timeout check and a sequence per
 * step), which dominates a small run's cost. Those shapes are compiled here into plain functions with
 * JSONata's semantics for plain JSON data: own properties only, `undefined` through missing fields,
 * `undefined` arithmetic on a missing operand. Whenever the data leaves that subset (an array on the
 * path, a non-number operand, a non-finite result) the function answers FALLBACK and the caller asks
 * JSONata, so errors and array mapping are exactly JSONata's. A test compares both on random inputs.
 */

import { MAX_JSON_DEPTH } from "../json/depth";

export const FALLBACK: unique symbol = Symbol("fallback to JSONata");
export type FastExpression = (input: unknown) => unknown;

interface AstNode {
  type: string;
  value?: unknown;
  steps?: AstNode[];
  lhs?: AstNode;
  rhs?: AstNode;
  [key: string]: unknown;
}

const arithmetic: Record<string, (a: number, b: number) => number> = {
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => a / b,
  "%": (a, b) => a % b,
};

/** True when the node has no properties beyond `allowed` (anything else — predicates, stages, focus… — is JSONata's). */
function only(node: AstNode, allowed: string[]): boolean {
  return Object.keys(node).every((k) => allowed.includes(k));
}

/** A plain function for JSONata's AST (`expression.ast()`) when it is in the fast subset, else undefined. */
export function compileFast(tree: unknown): FastExpression | undefined {
  const ast = tree as AstNode;
  switch (ast.type) {
    case "value":
    case "number":
    case "string": {
      if (!only(ast, ["type", "value", "position"])) return undefined;
      const value = ast.value;
      return () => value;
    }
    case "path": {
      if (!only(ast, ["type", "steps", "position"]) || !ast.steps?.length) return undefined;
      const keys: string[] = [];
      for (const step of ast.steps) {
        if (
          step.type !== "name" ||
          typeof step.value !== "string" ||
          !only(step, ["type", "value", "position"])
        )
          return undefined;
        keys.push(step.value);
      }
      // Deeper than plain data may nest, the plain scope has nothing there: JSONata says so.
      if (keys.length > MAX_JSON_DEPTH) return undefined;
      // Containers walked so far (the walk is synchronous, so one array per expression will do).
      const walked: object[] = [];
      return (input) => {
        let v = input;
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          if (Array.isArray(v)) return FALLBACK;
          if (v === null || typeof v !== "object") return undefined;
          // A cycle: plainScope cuts it where it closes, so let the checked way answer.
          for (let j = 0; j < i; j++) if (walked[j] === v) return FALLBACK;
          walked[i] = v;
          // Only what plainScope keeps: an own, enumerable data property. A getter is never called, so
          // the path may walk a scope that plainScope has not checked (see evaluator.ts).
          const d = Object.getOwnPropertyDescriptor(v, key);
          if (d === undefined || !d.enumerable || !("value" in d)) return undefined;
          v = d.value;
        }
        return Array.isArray(v) || typeof v === "function" ? FALLBACK : v;
      };
    }
    case "binary": {
      const op = typeof ast.value === "string" ? arithmetic[ast.value] : undefined;
      if (!op || !ast.lhs || !ast.rhs || !only(ast, ["type", "value", "position", "lhs", "rhs"]))
        return undefined;
      const lhs = compileFast(ast.lhs);
      const rhs = compileFast(ast.rhs);
      if (!lhs || !rhs) return undefined;
      return (input) => {
        const a = lhs(input);
        const b = rhs(input);
        if (a === FALLBACK || b === FALLBACK) return FALLBACK;
        const aOk = a === undefined || (typeof a === "number" && Number.isFinite(a));
        const bOk = b === undefined || (typeof b === "number" && Number.isFinite(b));
        if (!aOk || !bOk) return FALLBACK;
        if (a === undefined || b === undefined) return undefined;
        const result = op(a as number, b as number);
        return Number.isFinite(result) ? result : FALLBACK;
      };
    }
    default:
      return undefined;
  }
}
