/** Largest stored JSON per step field; bigger data is cut in the trace and marked (the run keeps it in memory). */
export const MAX_STORED_JSON = 4 * 1024 * 1024;

export interface Bounded {
  json: string;
  truncated: boolean;
}

// JSON text of objects that do not change once a run has them: the parsed trigger payload (its text is the
// request body the handler already serialised) and item lists (one step's output is the next one's input).
// Without it a 3-node webhook run serialised its payload three times and every item list twice.
const known = new WeakMap<object, string>();

/** Records the JSON text of a value that will not be mutated, so traces reuse it instead of serialising again. */
export function rememberJson(value: object, json: string): void {
  known.set(value, json);
}

type PlainItem = { json: object };
const isPlainItem = (x: unknown): x is PlainItem =>
  x !== null &&
  typeof x === "object" &&
  !Array.isArray(x) &&
  Object.keys(x).length === 1 &&
  "json" in x &&
  x.json !== null &&
  typeof x.json === "object";

/** Text too long to keep: its first characters, and how long it is at least. */
interface Cut {
  prefix: string;
  atLeast: number;
  /** True when `atLeast` is the whole length (the cut came at the last piece). */
  exact: boolean;
}

/**
 * Same text as JSON.stringify, built from remembered pieces where the value is (or holds) item lists.
 * An item list or step output whose text would pass `max` is not built: the pieces stop at the one that
 * passes it, and a Cut is returned. Items of one list often share one large payload (each item of a
 * split repeating the trigger's body), so the whole text — items × payload — could be far larger than
 * the request that caused it; building it to keep `max` of it cost memory and time (#18, red team).
 */
function jsonOf(value: unknown, max: number): string | Cut {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const hit = known.get(value);
  if (hit !== undefined) return hit;
  let pieces: (() => string | Cut)[];
  let open: string;
  if (Array.isArray(value) && value.every(isPlainItem)) {
    open = "[";
    pieces = value.map((item) => () => {
      const inner = jsonOf(item.json, max);
      return typeof inner === "string"
        ? `{"json":${inner}}`
        : { prefix: `{"json":${inner.prefix}`, atLeast: inner.atLeast + 9, exact: inner.exact };
    });
  } else if (
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.values(value).every((v) => Array.isArray(v))
  ) {
    // A step's outputs: port → item list.
    open = "{";
    pieces = Object.entries(value).map(([port, items]) => () => {
      const inner = jsonOf(items, max);
      const key = `${JSON.stringify(port)}:`;
      return typeof inner === "string"
        ? key + inner
        : { prefix: key + inner.prefix, atLeast: key.length + inner.atLeast, exact: inner.exact };
    });
  } else return JSON.stringify(value) ?? "null";
  const close = open === "[" ? "]" : "}";
  const parts: string[] = [];
  let length = 2;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!();
    const comma = i > 0 ? 1 : 0;
    if (typeof piece !== "string" || length + comma + piece.length > max) {
      const text = typeof piece === "string" ? piece : piece.prefix;
      const atLeast = length + comma + (typeof piece === "string" ? piece.length : piece.atLeast);
      const exact = i === pieces.length - 1 && (typeof piece === "string" || piece.exact);
      return { prefix: `${open}${parts.join(",")}${comma ? "," : ""}${text}`.slice(0, max), atLeast, exact };
    }
    parts.push(piece);
    length += comma + piece.length;
  }
  const text = `${open}${parts.join(",")}${close}`;
  if (open === "[") known.set(value, text);
  return text;
}

export function boundedJson(value: unknown, max = MAX_STORED_JSON): Bounded {
  const json = jsonOf(value, max);
  if (typeof json === "string" && json.length <= max) return { json, truncated: false };
  const [text, originalChars] = typeof json === "string" ? [json, json.length] : [json.prefix, json.atLeast];
  return {
    // A list cut while it was built reports the length it had reached: the field was at least that long.
    json: JSON.stringify({
      __truncated: true,
      originalChars,
      ...(typeof json === "string" || json.exact ? {} : { atLeast: true }),
      preview: text.slice(0, Math.min(max, 65_536)),
    }),
    truncated: true,
  };
}
