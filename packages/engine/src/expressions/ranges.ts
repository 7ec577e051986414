/**
 * `[a..b]` allocates its whole array in one native call, before any step check sees it (JSONata's own
 * cap is 10 million entries). The operands are marked at compile time, so the step hook can refuse a
 * range longer than `maxArrayLength` once both ends are known and before the array exists.
 */
import { type Budget, tooLongArray } from "./limits";

interface RangeOperand {
  op: object;
  side: "lhs" | "rhs";
}

export const rangeOperands = new WeakMap<object, RangeOperand>();

interface AstNode {
  type?: unknown;
  value?: unknown;
  lhs?: unknown;
  rhs?: unknown;
}

/** Marks the operands of every `..` in a compiled expression's AST. */
export function markRanges(ast: unknown): void {
  const seen = new Set<object>();
  const visit = (node: unknown, depth: number): void => {
    if (node === null || typeof node !== "object" || seen.has(node) || depth > 10_000) return;
    seen.add(node);
    const n = node as AstNode;
    if (n.type === "binary" && n.value === ".." && n.lhs && n.rhs) {
      rangeOperands.set(n.lhs as object, { op: n, side: "lhs" });
      rangeOperands.set(n.rhs as object, { op: n, side: "rhs" });
    }
    for (const child of Object.values(node)) visit(child, depth + 1);
  };
  visit(ast, 0);
}

/** Remembers a range's start; refuses the range when its end makes it longer than allowed. */
export function checkRange(
  range: RangeOperand,
  value: unknown,
  budget: Budget & { rangeStarts?: Map<object, unknown> },
) {
  if (range.side === "lhs") {
    budget.rangeStarts ??= new Map();
    budget.rangeStarts.set(range.op, value);
    return;
  }
  const start = budget.rangeStarts?.get(range.op);
  if (typeof start !== "number" || typeof value !== "number") return;
  const size = value - start + 1;
  if (size > budget.limits.maxArrayLength)
    throw tooLongArray(size, budget.limits, (range.op as { position?: number }).position);
}
