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
  x !== null && typeof x === "object" && !Array.isArray(x) && Object.keys(x).length === 1 && "json" in x && x.json !== null && typeof x.json === "object";

/** Same text as JSON.stringify, built from remembered pieces where the value is (or holds) item lists. */
function jsonOf(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const hit = known.get(value);
  if (hit !== undefined) return hit;
  let text: string;
  if (Array.isArray(value) && value.every(isPlainItem)) {
    text = `[${value.map((item) => `{"json":${jsonOf(item.json)}}`).join(",")}]`;
  } else if (!Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every((v) => Array.isArray(v))) {
    // A step's outputs: port → item list.
    return `{${Object.entries(value)
      .map(([port, items]) => `${JSON.stringify(port)}:${jsonOf(items)}`)
      .join(",")}}`;
  } else return JSON.stringify(value) ?? "null";
  known.set(value, text);
  return text;
}

export function boundedJson(value: unknown, max = MAX_STORED_JSON): Bounded {
  const json = jsonOf(value);
  if (json.length <= max) return { json, truncated: false };
  return {
    json: JSON.stringify({ __truncated: true, originalChars: json.length, preview: json.slice(0, Math.min(max, 65_536)) }),
    truncated: true,
  };
}
