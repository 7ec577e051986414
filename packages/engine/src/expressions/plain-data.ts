/**
 * The scope an expression sees is plain JSON: objects (plain or null-prototype) whose own properties are
 * all enumerable data properties, arrays, strings, numbers, booleans, null. Anything else a host object
 * may carry — functions, getters, symbols, class instances, other prototypes — is dropped (or, for a
 * Date, becomes its ISO string), so JSONata can neither call it nor trigger it through `then`, `toJSON`
 * or a getter. Each object is checked once and remembered with its JSON size: scope objects are never
 * mutated after the executor hands them out, so a webhook's several expressions walk a payload once.
 */
import { MAX_JSON_DEPTH } from "../json/depth";

interface Checked {
  /** The object itself when it was already plain, else its plain copy. */
  value: unknown;
  /** Estimated JSON size (same units as `jsonSizeWithin`). */
  size: number;
}

const checked = new WeakMap<object, Checked>();
const inProgress = new WeakSet<object>();

/** JSON size of an object already checked as scope data (itself or its plain copy), else undefined. */
export function dataSize(value: object): number | undefined {
  return checked.get(value)?.size;
}

/** The scope with every value plain; the same object when nothing had to change (the usual case). */
export function plainScope(scope: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(scope)) {
    const v = scope[key];
    const p = plainValue(v, 0).value;
    if (p !== v) {
      out ??= { ...scope };
      out[key] = p;
    }
  }
  return out ?? scope;
}

function plainValue(v: unknown, depth: number): Checked {
  switch (typeof v) {
    case "string":
      return { value: v, size: v.length + 2 };
    case "number":
    case "boolean":
      return { value: v, size: 5 };
    case "undefined":
      return { value: undefined, size: 0 };
    case "object":
      return v === null ? { value: null, size: 5 } : plainObject(v, depth);
    default:
      // functions, symbols, bigints: nothing JSON could carry
      return { value: undefined, size: 0 };
  }
}

function plainObject(o: object, depth: number): Checked {
  const known = checked.get(o);
  if (known) return known;
  // A cycle cannot be JSON: the back-reference is dropped.
  if (inProgress.has(o)) return { value: undefined, size: 0 };
  if (depth > MAX_JSON_DEPTH) return { value: undefined, size: 0 };
  if (o instanceof Date) {
    const iso = Number.isNaN(o.getTime()) ? null : o.toISOString();
    const result = { value: iso, size: iso === null ? 5 : iso.length + 2 };
    checked.set(o, result);
    return result;
  }
  inProgress.add(o);
  try {
    const result = Array.isArray(o) ? plainArray(o, depth) : plainRecord(o, depth);
    checked.set(o, result);
    if (result.value !== o && result.value !== null && typeof result.value === "object")
      checked.set(result.value, result);
    return result;
  } finally {
    inProgress.delete(o);
  }
}

function plainArray(a: unknown[], depth: number): Checked {
  // Only the indices and `length`: marker properties (JSONata sequences) or functions make a copy.
  let out: unknown[] | undefined =
    Object.getPrototypeOf(a) === Array.prototype &&
    Object.getOwnPropertyNames(a).length === a.length + 1 &&
    Object.getOwnPropertySymbols(a).length === 0
      ? undefined
      : [];
  let size = 2;
  for (let i = 0; i < a.length; i++) {
    const d = Object.getOwnPropertyDescriptor(a, i);
    const c = d && "value" in d ? plainValue(d.value, depth + 1) : { value: undefined, size: 0 };
    if (!out && (!d || c.value !== d.value)) {
      out = [];
      for (let j = 0; j < i; j++) out.push(a[j]);
    }
    if (out) out[i] = c.value;
    size += c.size + 1;
  }
  return { value: out ?? a, size };
}

function plainRecord(o: object, depth: number): Checked {
  const proto = Object.getPrototypeOf(o);
  const names = Object.getOwnPropertyNames(o);
  let out: Record<string, unknown> | undefined =
    (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(o).length === 0
      ? undefined
      : {};
  let size = 2;
  for (let i = 0; i < names.length; i++) {
    const key = names[i]!;
    const d = Object.getOwnPropertyDescriptor(o, key)!;
    const ok = d.enumerable && "value" in d;
    const c = ok ? plainValue(d.value, depth + 1) : { value: undefined, size: 0 };
    if (!out && (!ok || c.value !== d.value)) out = copyOf(o, names, i);
    if (c.value === undefined) continue;
    if (out) define(out, key, c.value);
    size += key.length + 3 + c.size;
  }
  return { value: out ?? o, size };
}

/** The first `n` own keys of `o` (already checked plain) in a fresh object. */
function copyOf(o: object, names: string[], n: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const v = (o as Record<string, unknown>)[names[i]!];
    if (v !== undefined) define(out, names[i]!, v);
  }
  return out;
}

// defineProperty keeps a key named `__proto__` an own data property instead of setting the prototype.
function define(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}
