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

// Remembered: the first levels of the scope (`nodes.<id>.items`, items and their jsons, which the
// executor hands out again in fresh containers), copies, and objects big enough that re-walking them
// would cost more than the lookup (a WeakMap write is the walk's main cost per object).
const checked = new WeakMap<object, Checked>();
const MEMO_TO_DEPTH = 2;
const MEMO_FROM_SIZE = 256;
// Objects whose walk is under way (the path from the root): meeting one again means a cycle, which JSON
// cannot carry. A stack, not a Set: a long-lived Set that young objects pass through can keep them alive
// in the hash tables it discards (see TransientMap); with the Set, W2 promoted 1.00 KB per request, with
// the stack 0.88. The path is short, and at most MAX_JSON_DEPTH long.
const walking: object[] = [];
// Size of the value the last `plain` call returned (the walk is synchronous and never re-entered).
let lastSize = 0;

/** JSON size of an object remembered as checked scope data (itself or its plain copy), else undefined. */
export function dataSize(value: object): number | undefined {
  return checked.get(value)?.size;
}

/** The scope with every value plain; the same object when nothing had to change (the usual case). */
export function plainScope(scope: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(scope)) {
    const v = scope[key];
    const p = plain(v, 0);
    if (p !== v) {
      out ??= { ...scope };
      out[key] = p;
    }
  }
  return out ?? scope;
}

/**
 * One value of a scope made plain as plainScope would make it, without walking the rest of the scope: for
 * a value a path found through own data properties (evaluator.ts). Nesting is counted from the value, not
 * from the scope's root (payloads nested anywhere near the limit are refused at ingress), and a cycle back
 * to a container above the value is cut where it closes below it (the result is plain data either way).
 */
export function plainValue(v: unknown): unknown {
  return plain(v, 0);
}

function plain(v: unknown, depth: number): unknown {
  switch (typeof v) {
    case "string":
      lastSize = v.length + 2;
      return v;
    case "number":
    case "boolean":
      lastSize = 5;
      return v;
    case "object":
      if (v === null) {
        lastSize = 5;
        return v;
      }
      return plainObject(v, depth);
    default:
      // undefined, functions, symbols, bigints: nothing JSON could carry
      lastSize = 0;
      return undefined;
  }
}

function plainObject(o: object, depth: number): unknown {
  const known = checked.get(o);
  if (known !== undefined) {
    lastSize = known.size;
    return known.value;
  }
  if (depth > MAX_JSON_DEPTH) {
    lastSize = 0;
    return undefined;
  }
  if (o instanceof Date) {
    const iso = Number.isNaN(o.getTime()) ? null : o.toISOString();
    const result = { value: iso, size: iso === null ? 5 : iso.length + 2 };
    checked.set(o, result);
    lastSize = result.size;
    return iso;
  }
  if (walking.includes(o)) {
    lastSize = 0;
    return undefined;
  }
  walking.push(o);
  let result: Checked;
  try {
    result = Array.isArray(o) ? plainArray(o, depth) : plainRecord(o, depth);
  } finally {
    walking.pop();
  }
  if (result.value !== o) {
    checked.set(o, result);
    checked.set(result.value as object, result);
  } else if (depth <= MEMO_TO_DEPTH || result.size >= MEMO_FROM_SIZE) checked.set(o, result);
  lastSize = result.size;
  return result.value;
}

function plainArray(a: unknown[], depth: number): Checked {
  // Only the indices and `length`: named properties (JSONata sequence markers, functions) make a copy.
  let out: unknown[] | undefined =
    Object.getPrototypeOf(a) === Array.prototype && Object.getOwnPropertyNames(a).length === a.length + 1
      ? undefined
      : [];
  let size = 2;
  for (let i = 0; i < a.length; i++) {
    const d = Object.getOwnPropertyDescriptor(a, i);
    const ok = d !== undefined && "value" in d;
    const p = ok ? plain(d.value, depth + 1) : undefined;
    size += (ok ? lastSize : 0) + 1;
    if (!out && (!ok || p !== d.value)) {
      out = [];
      for (let j = 0; j < i; j++) out.push(a[j]);
    }
    if (out) out[i] = p;
  }
  return { value: out ?? a, size };
}

function plainRecord(o: object, depth: number): Checked {
  const proto = Object.getPrototypeOf(o);
  const names = Object.getOwnPropertyNames(o);
  let out: Record<string, unknown> | undefined =
    proto === Object.prototype || proto === null ? undefined : {};
  let size = 2;
  for (let i = 0; i < names.length; i++) {
    const key = names[i]!;
    const d = Object.getOwnPropertyDescriptor(o, key)!;
    const ok = d.enumerable === true && "value" in d;
    const p = ok ? plain(d.value, depth + 1) : undefined;
    if (!out && (!ok || p !== d.value)) out = copyOf(o, names, i);
    if (p === undefined) continue;
    if (out) define(out, key, p);
    size += key.length + 3 + lastSize;
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

/** A JSONata lambda, a built-in's function object, or a host function. */
export function isFunctionValue(v: unknown): boolean {
  return (
    typeof v === "function" ||
    (v !== null && typeof v === "object" && ("_jsonata_lambda" in v || "_jsonata_function" in v))
  );
}
