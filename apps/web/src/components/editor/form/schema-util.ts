/** Reading the JSON Schema subset that z.toJSONSchema emits, for the form generator. */
import type { JsonSchema } from "@switchyard/contracts";

export type FieldKind =
  | "string"
  | "code"
  | "number"
  | "integer"
  | "boolean"
  | "enum"
  | "object"
  | "record"
  | "array"
  | "union"
  | "json";

const ACRONYMS = new Set([
  "url",
  "id",
  "ms",
  "http",
  "hmac",
  "json",
  "html",
  "ttl",
  "smtp",
  "sec",
  "mb",
  "api",
]);

/** `maxBodyBytes` → "Max body bytes", `url` → "URL". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .split(/\s+/)
    .map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w.toLowerCase()));
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function variantsOf(schema: JsonSchema): JsonSchema[] | undefined {
  return schema.oneOf ?? schema.anyOf;
}

/** The property whose `const` tells the variants of a union apart (e.g. `type`). */
export function discriminatorOf(variants: JsonSchema[]): string | undefined {
  const first = variants[0]?.properties;
  if (!first) return undefined;
  return Object.keys(first).find((key) => variants.every((v) => v.properties?.[key]?.const !== undefined));
}

function types(schema: JsonSchema): string[] {
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

export function fieldKind(schema: JsonSchema, key: string): FieldKind {
  const variants = variantsOf(schema);
  if (variants) {
    if (discriminatorOf(variants)) return "union";
    const consts = variants.map((v) => v.const);
    if (consts.every((c) => c !== undefined)) return "enum";
    return variants.every((v) => types(v).every((t) => t !== "object" && t !== "array")) ? "string" : "json";
  }
  if (schema.enum) return "enum";
  const t = types(schema);
  if (t.length !== 1)
    return t.length > 1 && !t.includes("object") && !t.includes("array") ? "string" : "json";
  switch (t[0]) {
    case "string":
      return schema.format === "code" || schema.contentMediaType?.includes("javascript") || key === "code"
        ? "code"
        : "string";
    case "number":
      return "number";
    case "integer":
      return "integer";
    case "boolean":
      return "boolean";
    case "array":
      return "array";
    case "object":
      if (schema.properties && Object.keys(schema.properties).length) return "object";
      return schema.additionalProperties && typeof schema.additionalProperties === "object"
        ? "record"
        : "json";
    default:
      return "json";
  }
}

export function enumOptions(schema: JsonSchema): unknown[] {
  return schema.enum ?? (variantsOf(schema) ?? []).map((v) => v.const);
}

export function isExpression(value: unknown): value is string {
  return typeof value === "string" && value.startsWith("=");
}

/** Sets (or, with undefined, removes) a key while keeping the order of the others. */
export function withKey(obj: unknown, key: string, value: unknown): Record<string, unknown> | undefined {
  const base = obj && typeof obj === "object" && !Array.isArray(obj) ? (obj as Record<string, unknown>) : {};
  const next: Record<string, unknown> = { ...base };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function describeDefault(schema: JsonSchema): string | undefined {
  if (schema.default === undefined) return undefined;
  return typeof schema.default === "string" ? schema.default : JSON.stringify(schema.default);
}
