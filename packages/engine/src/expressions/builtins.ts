/**
 * JSONata built-ins that allocate or loop in one native call, which no step check can interrupt, bound
 * by their input sizes before they run. Each override keeps the built-in's name, signature and
 * parameter names (partial application reads them) and delegates to the original when the input is
 * within bounds.
 */
import type jsonata from "jsonata";
import { registerArgumentGuards } from "./builtins-guards";
import { type Native, original } from "./builtins-original";
import {
  type ExpressionLimits,
  ExpressionLimitError,
  jsonSizeWithin,
  tooLongArray,
  tooLongString,
} from "./limits";
import { isFunctionValue } from "./plain-data";

const surrogate = /[\uD800-\uDFFF]/;

/**
 * Registers the bounded built-ins an expression can call: those its source names, or all of them when
 * it uses `$eval` (built-ins are reachable only as `$name`). Fewer bindings keep every lookup cheap.
 */
export function registerBoundedBuiltins(
  expr: jsonata.Expression,
  limits: ExpressionLimits,
  source: string,
): void {
  const maxStr = limits.maxStringLength;
  const maxArr = limits.maxArrayLength;
  const all = source.includes("$eval");
  const fn = (name: string, impl: Native, signature: string) => {
    if (all || source.includes(`$${name}`)) expr.registerFunction(name, impl, signature);
  };

  fn(
    "pad",
    function pad(str, width, char) {
      if (str === undefined) return undefined;
      const w = Math.abs(width as number);
      if (w > maxStr) throw tooLongString(w, limits);
      const s = str as string;
      const fill = char === undefined || char === "" ? " " : (char as string);
      const missing = w - [...s].length;
      if (missing <= 0) return s;
      const padding = fill.repeat(Math.ceil(missing / fill.length)).slice(0, missing);
      return (width as number) < 0 ? padding + s : s + padding;
    },
    "<s-ns?:s>",
  );

  // Parameter counts match the originals': higher-order functions pass as many arguments as declared.
  fn(
    "string",
    async function string(this: unknown, arg: unknown, prettify: unknown = false) {
      if (arg !== null && typeof arg === "object") jsonSizeWithin(arg, limits, undefined, prettify === true);
      return (await original("string")).call(this, arg, prettify);
    },
    "<x-b?:s>",
  );

  fn(
    "join",
    async function join(this: unknown, strs, separator) {
      if (Array.isArray(strs)) {
        let total = (strs.length - 1) * (typeof separator === "string" ? separator.length : 0);
        for (const s of strs) total += typeof s === "string" ? s.length : 0;
        if (total > maxStr) throw tooLongString(total, limits);
      }
      return (await original("join")).call(this, strs, separator);
    },
    "<a<s>s?:s>",
  );

  fn(
    "split",
    async function split(this: unknown, str, separator, limit) {
      // A negative limit stays negative, so the original reports it.
      const cap = limit === undefined ? maxArr + 1 : Math.min(limit as number, maxArr + 1);
      const parts = (await (await original("split")).call(this, str, separator, cap)) as
        | unknown[]
        | undefined;
      if (parts && parts.length > maxArr) throw tooLongArray(parts.length, limits);
      return parts;
    },
    "<s-(sf)n?:a<s>>",
  );

  fn(
    "replace",
    async function replace(this: unknown, str, pattern, replacement, limit) {
      // A plain-string pattern loops natively, one concatenation per occurrence: project the result first.
      if (
        typeof str === "string" &&
        typeof pattern === "string" &&
        pattern !== "" &&
        typeof replacement === "string"
      ) {
        const max = limit === undefined ? Number.POSITIVE_INFINITY : (limit as number);
        let count = 0;
        for (
          let i = str.indexOf(pattern);
          i !== -1 && count < max;
          i = str.indexOf(pattern, i + pattern.length)
        )
          count++;
        const length = str.length + count * (replacement.length - pattern.length);
        if (length > maxStr) throw tooLongString(length, limits);
        if (count > maxArr) throw tooLongArray(count, limits);
      }
      return (await original("replace")).call(this, str, pattern, replacement, limit);
    },
    "<s-(sf)(sf)n?:s>",
  );

  fn(
    "sort",
    async function sort(this: unknown, arr, comparator) {
      // JSONata's default-order merge sort awaits every comparison and copies per step: O(n²), never
      // interrupted. The same stable ascending order, natively.
      if (comparator === undefined && Array.isArray(arr) && arr.length > 1) {
        const nums = arr.every((v) => typeof v === "number");
        if (!nums && !arr.every((v) => typeof v === "string")) throw { code: "D3070", index: 1 };
        return [...arr].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      }
      return (await original("sort")).call(this, arr, comparator);
    },
    "<af?:a>",
  );

  fn(
    "distinct",
    async function distinct(this: unknown, arr) {
      // Pairwise deep comparison is O(n²) in one call; long arrays of plain values use a key instead.
      if (Array.isArray(arr) && arr.length > 1000) {
        const seen = new Set<string>();
        const out: unknown[] = [];
        for (const v of arr) {
          const key = canonical(v);
          if (!seen.has(key)) {
            seen.add(key);
            out.push(v);
          }
        }
        return out;
      }
      return (await original("distinct")).call(this, arr);
    },
    "<x:x>",
  );

  // Both split the string into an array of code points first; without surrogates, indices are units.
  fn(
    "length",
    async function length(this: unknown, str) {
      if (typeof str === "string" && !surrogate.test(str)) return str.length;
      return (await original("length")).call(this, str);
    },
    "<s-:n>",
  );
  fn(
    "substring",
    async function substring(this: unknown, str, start, length) {
      if (typeof str === "string" && !surrogate.test(str)) {
        let from = start as number;
        if (str.length + from < 0) from = 0;
        if (length === undefined) return str.slice(from);
        if ((length as number) <= 0) return "";
        return str.slice(
          from,
          from >= 0 ? from + (length as number) : str.length + from + (length as number),
        );
      }
      return (await original("substring")).call(this, str, start, length);
    },
    "<s-nn?:s>",
  );

  fn(
    "toMillis",
    async function toMillis(this: unknown, timestamp, picture) {
      // A picture becomes a backtracking V8 regex, one group per component: C(n, k) ways to split n chars.
      if (typeof timestamp === "string" && typeof picture === "string") {
        const k = (picture.replace(/\[\[/g, "").match(/\[/g) ?? []).length;
        if (timestamp.length > 1000 || binomial(timestamp.length, k) > 1e7)
          throw new ExpressionLimitError(
            `$toMillis: a ${timestamp.length}-character timestamp against a picture with ${k} components is too costly to parse`,
          );
      }
      return (await original("toMillis")).call(this, timestamp, picture);
    },
    "<s-s?:n>",
  );

  registerArgumentGuards(fn, limits);
}

function binomial(n: number, k: number): number {
  const kk = Math.min(k, n - k);
  if (kk < 0) return 0;
  let r = 1;
  for (let i = 1; i <= kk; i++) {
    r = (r * (n - kk + i)) / i;
    if (r > 1e12) return r;
  }
  return r;
}

/** A key equal for values JSONata's deep equality treats as equal (object key order ignored). */
function canonical(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (isFunctionValue(v))
    throw new ExpressionLimitError("$distinct of more than 1000 entries cannot compare functions");
  if (v === null || typeof v !== "object") return `${typeof v}:${String(v)}`;
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")}}`;
}
