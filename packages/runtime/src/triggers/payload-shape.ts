/**
 * Reading a trigger's declared payload schema as data (its JSON Schema): an example holding every
 * declared key, and the shape of a value (its declared keys, nested) to compare with what a run received.
 * The editor's expression help shows the example before a flow has run; the contract test uses both.
 */
import { z } from "zod";

interface Js {
  type?: string | string[];
  properties?: Record<string, Js>;
  additionalProperties?: Js | boolean;
  items?: Js;
  anyOf?: Js[];
  oneOf?: Js[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  minimum?: number;
  $ref?: string;
  $defs?: Record<string, Js>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function jsonSchema(schema: z.ZodType) {
  const root = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Js;
  const resolve = (s: Js): Js => {
    if (!s.$ref) return s;
    const def = root.$defs?.[s.$ref.replace("#/$defs/", "")];
    if (!def) throw new Error(`unresolvable $ref ${s.$ref}`);
    return def;
  };
  return { root, resolve };
}

/**
 * A value of the schema with every declared property present, optional ones included; a record gets one
 * entry, a list one element, a union its first branch.
 */
export function exampleOf(schema: z.ZodType): unknown {
  const { root, resolve } = jsonSchema(schema);
  const walk = (raw: Js): unknown => {
    const s = resolve(raw);
    if ("const" in s) return s.const;
    if (s.enum) return s.enum[0];
    const branches = s.anyOf ?? s.oneOf;
    if (branches?.[0]) return walk(branches[0]);
    switch (Array.isArray(s.type) ? s.type[0] : s.type) {
      case "object":
        if (s.properties)
          return Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, walk(p)]));
        return isObject(s.additionalProperties) ? { key: walk(s.additionalProperties) } : {};
      case "array":
        return s.items ? [walk(s.items)] : [];
      case "string":
        return "x".repeat(Math.max(1, s.minLength ?? 1));
      case "integer":
      case "number":
        return s.minimum ?? 1;
      case "boolean":
        return true;
      case "null":
        return null;
      case undefined:
        return "any JSON"; // {}: an unknown value
      default:
        throw new Error(`no example for JSON Schema ${JSON.stringify(s)}`);
    }
  };
  return walk(root);
}

/**
 * The keys of `value` where the schema declares properties (sorted, nested; `undeclared` marks a key the
 * schema lacks), the distinct shapes of a list of such objects, and `value` for anything free-form.
 */
export function shapeOf(schema: z.ZodType, value: unknown): unknown {
  const { root, resolve } = jsonSchema(schema);
  const walk = (raw: Js, v: unknown): unknown => {
    const s = resolve(raw);
    if (s.properties && isObject(v)) {
      const props = s.properties;
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, props[k] ? walk(props[k], v[k]) : "undeclared"]),
      );
    }
    const items = s.items && resolve(s.items);
    if (items?.properties && Array.isArray(v)) {
      const shapes = new Set(v.map((e) => JSON.stringify(walk(items, e))));
      return [...shapes].map((x) => JSON.parse(x) as unknown);
    }
    return "value";
  };
  return walk(root, value);
}
