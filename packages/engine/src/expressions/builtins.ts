/**
 * JSONata built-ins that allocate or loop in one native call, which no step check can interrupt, bound
 * by their input sizes before they run. Each override keeps the built-in's name, signature and
 * parameter names (partial application reads them) and delegates to the original when the input is
 * within bounds.
 */
import jsonata from "jsonata";
import {
  type ExpressionLimits,
  ExpressionLimitError,
  jsonSizeWithin,
  tooLongArray,
  tooLongString,
} from "./limits";

type Native = (this: unknown, ...args: unknown[]) => unknown;
const wrapped = [
  "string",
  "join",
  "split",
  "replace",
  "sort",
  "distinct",
  "length",
  "substring",
  "toMillis",
  "formatNumber",
  "formatInteger",
  "parseInteger",
  "fromMillis",
  "encodeUrl",
  "encodeUrlComponent",
  "uppercase",
  "lowercase",
];

/**
 * JSONata analyses a picture string in quadratic time in one native call (a 40 kB `$formatNumber`
 * picture took 6 s): real pictures are a few dozen characters.
 */
export const MAX_PICTURE_CHARS = 1000;

function checkPicture(name: string, picture: unknown): void {
  const text = typeof picture === "string" ? picture : picture && typeof picture === "object" ? JSON.stringify(picture) : "";
  if (text.length > MAX_PICTURE_CHARS)
    throw new ExpressionLimitError(
      `$${name} picture of ${text.length} characters is longer than ${MAX_PICTURE_CHARS} (pictures are checked before they are analysed)`,
    );
}

// JSONata exposes its built-ins only through evaluation, which is async: fetched once, on first use.
let originals: Promise<Record<string, Native>> | undefined;
function original(name: string): Promise<Native> {
  originals ??= (async () => {
    const out: Record<string, Native> = {};
    for (const n of wrapped) {
      const fn = (await jsonata(`$${n}`).evaluate({})) as { implementation: Native };
      out[n] = fn.implementation;
    }
    return out;
  })();
  return originals.then((o) => o[name]!);
}

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

  // Pictures and options are bounded before JSONata analyses them. Parameter names are spelled out:
  // partial application reads them from the function's source.
  fn(
    "formatNumber",
    async function formatNumber(this: unknown, value, picture, options) {
      checkPicture("formatNumber", picture);
      checkPicture("formatNumber", options);
      return (await original("formatNumber")).call(this, value, picture, options);
    },
    "<n-so?:s>",
  );
  fn(
    "formatInteger",
    async function formatInteger(this: unknown, value, picture) {
      checkPicture("formatInteger", picture);
      return (await original("formatInteger")).call(this, value, picture);
    },
    "<n-s:s>",
  );
  fn(
    "parseInteger",
    async function parseInteger(this: unknown, value, picture) {
      checkPicture("parseInteger", picture);
      return (await original("parseInteger")).call(this, value, picture);
    },
    "<s-s:n>",
  );
  fn(
    "fromMillis",
    async function fromMillis(this: unknown, millis, picture, timezone) {
      checkPicture("fromMillis", picture);
      checkPicture("fromMillis", timezone);
      return (await original("fromMillis")).call(this, millis, picture, timezone);
    },
    "<n-s?s?:s>",
  );

  // One character can become up to 9 (`€` → `%E2%82%AC`) or 3 (case mappings) in one native call: the
  // result's worst case is checked before it is built.
  const growing = (name: string, factor: number) =>
    async function grow(this: unknown, str: unknown) {
      if (typeof str === "string" && str.length * factor > maxStr) throw tooLongString(str.length * factor, limits);
      return (await original(name)).call(this, str);
    };
  fn("encodeUrl", growing("encodeUrl", 9), "<s-:s>");
  fn("encodeUrlComponent", growing("encodeUrlComponent", 9), "<s-:s>");
  fn("uppercase", growing("uppercase", 3), "<s-:s>");
  fn("lowercase", growing("lowercase", 3), "<s-:s>");

  // JSONata's own $spread takes a built-in's function object apart like data, handing out its host
  // `implementation`; functions stay opaque here, as $keys and path lookups already treat them.
  fn(
    "spread",
    function spread(arg) {
      if (isFunctionValue(arg) || arg === null || typeof arg !== "object") return arg;
      const out: unknown[] & { sequence?: boolean } = [];
      out.sequence = true;
      const visit = (v: unknown) => {
        if (Array.isArray(v)) for (const e of v) visit(e);
        else if (v !== null && typeof v === "object" && !isFunctionValue(v)) {
          for (const k of Object.keys(v)) {
            const one: Record<string, unknown> = Object.create(null);
            one[k] = (v as Record<string, unknown>)[k];
            out.push(one);
          }
        } else if (v !== undefined) out.push(v);
      };
      visit(arg);
      return out;
    },
    "<x-:a<o>>",
  );
}

/** A JSONata lambda, a built-in's function object, or a host function. */
export function isFunctionValue(v: unknown): boolean {
  return (
    typeof v === "function" ||
    (v !== null && typeof v === "object" && ("_jsonata_lambda" in v || "_jsonata_function" in v))
  );
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
  if (
    typeof v === "function" ||
    (v !== null && typeof v === "object" && ("_jsonata_lambda" in v || "_jsonata_function" in v))
  )
    throw new ExpressionLimitError("$distinct of more than 1000 entries cannot compare functions");
  if (v === null || typeof v !== "object") return `${typeof v}:${String(v)}`;
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")}}`;
}
