/**
 * Guards for built-ins whose cost hides in one argument rather than in the sizes limits.ts watches:
 * picture strings analysed in quadratic time, encodings and case mappings that grow their input, and
 * $spread, which would take a built-in's function object apart.
 */
import { type ExpressionLimits, ExpressionLimitError, tooLongString } from "./limits";
import { type Native, original } from "./builtins-original";
import { isFunctionValue } from "./plain-data";

type Register = (name: string, impl: Native, signature: string) => void;

/**
 * JSONata analyses a picture string in quadratic time in one native call (a 40 kB `$formatNumber`
 * picture took 6 s): real pictures are a few dozen characters.
 */
const MAX_PICTURE_CHARS = 1000;

function checkPicture(name: string, picture: unknown): void {
  const text =
    typeof picture === "string"
      ? picture
      : picture && typeof picture === "object"
        ? JSON.stringify(picture)
        : "";
  if (text.length > MAX_PICTURE_CHARS)
    throw new ExpressionLimitError(
      `$${name} picture of ${text.length} characters is longer than ${MAX_PICTURE_CHARS} (pictures are checked before they are analysed)`,
    );
}

/** Registers the guarded built-ins through `fn` (which binds only those an expression can reach). */
export function registerArgumentGuards(fn: Register, limits: ExpressionLimits): void {
  const maxStr = limits.maxStringLength;
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
      if (typeof str === "string" && str.length * factor > maxStr)
        throw tooLongString(str.length * factor, limits);
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
