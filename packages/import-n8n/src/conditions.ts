/**
 * n8n's filter conditions (IF v2, Switch v3: `{ conditions: [{ leftValue, rightValue, operator }],
 * combinator }`; IF v1: `{ string: [{ value1, operation, value2 }], … }`) as one JSONata condition.
 */
import { type ExpressionContext, operand } from "./expressions";

type Operator = { type?: string; operation?: string };
type Condition = { leftValue?: unknown; rightValue?: unknown; operator?: Operator };
export type FilterValue = {
  conditions?: Condition[];
  combinator?: "and" | "or";
  options?: { caseSensitive?: boolean };
};

/** The JSONata test for one operation, or undefined when it has no equivalent. */
function test(type: string, op: string, l: string, r: string): string | undefined {
  const empty = `($not($exists(${l})) or ${l} = null or ${l} = "" or ($type(${l}) = "array" and $count(${l}) = 0) or ($type(${l}) = "object" and $count($keys(${l})) = 0))`;
  switch (op) {
    case "equals":
      return `${l} = ${r}`;
    case "notEquals":
      return `${l} != ${r}`;
    case "gt":
    case "after":
      return `${l} > ${r}`;
    case "lt":
    case "before":
      return `${l} < ${r}`;
    case "gte":
    case "afterOrEquals":
      return `${l} >= ${r}`;
    case "lte":
    case "beforeOrEquals":
      return `${l} <= ${r}`;
    case "contains":
      return type === "array" ? `${r} in ${l}` : `$contains($string(${l}), ${r})`;
    case "notContains":
      return type === "array" ? `$not(${r} in ${l})` : `$not($contains($string(${l}), ${r}))`;
    case "startsWith":
      return `$substring($string(${l}), 0, $length(${r})) = ${r}`;
    case "notStartsWith":
      return `$substring($string(${l}), 0, $length(${r})) != ${r}`;
    case "endsWith":
      return `$length($string(${l})) >= $length(${r}) and $substring($string(${l}), $length($string(${l})) - $length(${r})) = ${r}`;
    case "exists":
      return `$exists(${l})`;
    case "notExists":
      return `$not($exists(${l}))`;
    case "empty":
      return empty;
    case "notEmpty":
      return `$not(${empty})`;
    case "true":
      return `${l} = true`;
    case "false":
      return `${l} = false`;
    case "lengthEquals":
      return `$count(${l}) = ${r}`;
    case "lengthNotEquals":
      return `$count(${l}) != ${r}`;
    case "lengthGt":
      return `$count(${l}) > ${r}`;
    case "lengthLt":
      return `$count(${l}) < ${r}`;
    default:
      return undefined;
  }
}

/** One `=` condition string, or undefined after reporting what could not be translated. */
export function filterToCondition(
  filter: FilterValue | undefined,
  field: string,
  ctx: ExpressionContext,
): string | undefined {
  const conditions = filter?.conditions ?? [];
  if (conditions.length === 0) return "=true";
  const caseSensitive = filter?.options?.caseSensitive !== false;
  const tests: string[] = [];
  for (const [i, c] of conditions.entries()) {
    const type = c.operator?.type ?? "string";
    const op = c.operator?.operation ?? "equals";
    const at = `${field}.conditions.${i}`;
    const asNumber = type === "number";
    let l = operand(c.leftValue, `${at}.leftValue`, ctx, asNumber);
    let r = operand(c.rightValue, `${at}.rightValue`, ctx, asNumber);
    if (l === undefined || r === undefined) return undefined;
    if (type === "dateTime") {
      l = `$toMillis(${l})`;
      r = `$toMillis(${r})`;
    }
    if (type === "string" && !caseSensitive && !["exists", "notExists", "empty", "notEmpty"].includes(op)) {
      l = `$lowercase(${l})`;
      r = `$lowercase(${r})`;
    }
    const t = test(type, op, l, r);
    if (t === undefined) {
      ctx.report.problem(
        "expression_untranslated",
        ctx.node,
        at,
        `the ${type} operation "${op}" has no translation; write the condition in JSONata`,
      );
      return undefined;
    }
    tests.push(`(${t})`);
  }
  return `=${tests.join(filter?.combinator === "or" ? " or " : " and ")}`;
}

type V1Rule = { value1?: unknown; operation?: string; value2?: unknown };
const V1_OPS: Record<string, string> = {
  equal: "equals",
  notEqual: "notEquals",
  larger: "gt",
  smaller: "lt",
  largerEqual: "gte",
  smallerEqual: "lte",
  contains: "contains",
  notContains: "notContains",
  startsWith: "startsWith",
  endsWith: "endsWith",
  isEmpty: "empty",
  isNotEmpty: "notEmpty",
};

/** IF v1's typed lists (`string`, `number`, `boolean`, `dateTime`) as the v2 filter shape. */
export function v1ConditionsToFilter(
  conditions: Record<string, V1Rule[] | undefined>,
  combine: string | undefined,
): FilterValue {
  const list: Condition[] = [];
  for (const type of ["boolean", "number", "string", "dateTime"]) {
    for (const rule of conditions[type] ?? []) {
      const op = rule.operation ?? "equal";
      list.push({
        leftValue: rule.value1,
        rightValue: rule.value2 ?? (type === "boolean" ? false : ""),
        operator: { type, operation: V1_OPS[op] ?? op },
      });
    }
  }
  return { conditions: list, combinator: combine === "any" ? "or" : "and" };
}
