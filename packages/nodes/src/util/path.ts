import { NodeError } from "../errors";

/** Segments that would reach an object's prototype; refused so user paths cannot pollute it. */
const FORBIDDEN = new Set(["__proto__", "prototype", "constructor"]);

/** Splits `a.b.0.c` into segments; refuses empty or prototype-reaching segments. */
export function splitPath(path: string, nodeId?: string): string[] {
  const segments = path.split(".");
  for (const s of segments) {
    if (s === "") throw new NodeError("config_invalid", `path "${path}" has an empty segment`, { nodeId });
    if (FORBIDDEN.has(s)) {
      throw new NodeError("config_invalid", `path "${path}" uses the reserved segment "${s}"`, { nodeId });
    }
  }
  return segments;
}

/** Reads a dot path; array indexes are numeric segments. Missing → undefined. */
export function getPath(value: unknown, path: string, nodeId?: string): unknown {
  let cur: unknown = value;
  for (const s of splitPath(path, nodeId)) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = Object.hasOwn(cur, s) ? (cur as Record<string, unknown>)[s] : undefined;
  }
  return cur;
}

/** Writes a dot path, creating plain objects on the way; returns the same target. */
export function setPath(
  target: Record<string, unknown>,
  path: string,
  value: unknown,
  nodeId?: string,
): Record<string, unknown> {
  const segments = splitPath(path, nodeId);
  let cur: Record<string, unknown> = target;
  for (const s of segments.slice(0, -1)) {
    const next = Object.hasOwn(cur, s) ? cur[s] : undefined;
    if (next === null || typeof next !== "object") {
      const created: Record<string, unknown> = {};
      cur[s] = created;
      cur = created;
    } else {
      cur = next as Record<string, unknown>;
    }
  }
  cur[segments[segments.length - 1] as string] = value;
  return target;
}

/** Deep copy of JSON data, so a node never mutates its upstream items. */
export function cloneJson<T>(value: T): T {
  return structuredClone(value);
}
