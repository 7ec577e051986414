import type { Item } from "@switchyard/engine";
import { NodeError, type NodeErrorCode } from "../errors";

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}

/**
 * Turns a computed value into items: an object is one item, an array one item per element,
 * null/undefined none. Anything else fails with `code`, naming `what` produced it.
 */
export function valueToItems(value: unknown, what: string, code: NodeErrorCode, nodeId: string): Item[] {
  if (value === null || value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((el, i) => {
    if (!isPlainObject(el)) {
      const where = Array.isArray(value) ? `element ${i}` : "the result";
      throw new NodeError(
        code,
        `${what} must return an object or an array of objects; ${where} is ${kindOf(el)}`,
        {
          nodeId,
          retryable: false,
        },
      );
    }
    return { json: el };
  });
}

export { isPlainObject };
