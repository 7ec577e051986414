"use client";

import { memo } from "react";

/** A JSON Schema node as the OpenAPI document carries it. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: Schema | boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
};

export type Components = Record<string, Schema>;

const refName = (ref: string) => ref.split("/").pop() ?? ref;

/** One line saying what a value is: `string (1–200 chars)`, `"a" | "b"`, `FlowSummary[]`. */
export function typeLabel(s: Schema): string {
  if (s.$ref) return refName(s.$ref);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map(typeLabel).join(" | ");
  const type = Array.isArray(s.type) ? s.type.join(" | ") : s.type;
  if (type === "array") return `${s.items ? typeLabel(s.items) : "any"}[]`;
  if (
    type === "object" &&
    !s.properties &&
    s.additionalProperties &&
    typeof s.additionalProperties === "object"
  ) {
    return `{ [key]: ${typeLabel(s.additionalProperties)} }`;
  }
  return type ?? "any JSON";
}

function limits(s: Schema): string[] {
  const out: string[] = [];
  if (s.format) out.push(s.format);
  if (s.minLength !== undefined || s.maxLength !== undefined)
    out.push(`${s.minLength ?? 0}–${s.maxLength ?? "∞"} chars`);
  // zod writes the safe-integer range on every integer; only real bounds are worth showing.
  const min = s.minimum !== undefined && s.minimum > Number.MIN_SAFE_INTEGER ? s.minimum : undefined;
  const max = s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
  if (min !== undefined || max !== undefined) out.push(`${min ?? "−∞"}…${max ?? "∞"}`);
  if (s.maxItems !== undefined) out.push(`≤ ${s.maxItems} items`);
  if (s.pattern) out.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

/** The object whose fields should be listed under a value, following refs and arrays. */
function fieldsOf(
  s: Schema,
  components: Components,
  seen: Set<string>,
): { schema: Schema; ref?: string } | undefined {
  if (s.$ref) {
    const name = refName(s.$ref);
    const target = components[name];
    if (!target || seen.has(name)) return undefined;
    return { schema: target, ref: name };
  }
  if (s.properties) return { schema: s };
  if (s.items) return fieldsOf(s.items, components, seen);
  return undefined;
}

/** A schema as a nested field list; refs expand in place, and a ref already open above is not repeated. */
export const SchemaView = memo(function SchemaView({
  schema,
  components,
  seen = new Set(),
  depth = 0,
}: {
  schema: Schema;
  components: Components;
  seen?: Set<string>;
  depth?: number;
}) {
  const target = fieldsOf(schema, components, seen);
  if (!target?.schema.properties) {
    return <p className="font-mono text-xs text-slate-600 dark:text-slate-300">{typeLabel(schema)}</p>;
  }
  const nextSeen = target.ref ? new Set([...seen, target.ref]) : seen;
  const required = new Set(target.schema.required ?? []);
  return (
    <ul
      className={`space-y-1 text-sm ${depth ? "ml-4 border-l border-slate-200 pl-3 dark:border-slate-700" : ""}`}
    >
      {Object.entries(target.schema.properties).map(([name, prop]) => {
        const nested = depth < 6 ? fieldsOf(prop, components, nextSeen) : undefined;
        const line = (
          <span>
            <code className="font-mono text-sm font-semibold">{name}</code>
            {required.has(name) ? (
              <span className="ml-1 text-xs text-red-600 dark:text-red-400">required</span>
            ) : null}
            <code className="ml-2 font-mono text-xs text-brand-700 dark:text-brand-300">
              {typeLabel(prop)}
            </code>
            {limits(prop).map((l) => (
              <span key={l} className="ml-2 text-xs text-slate-500">
                {l}
              </span>
            ))}
            {prop.description ? (
              <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">— {prop.description}</span>
            ) : null}
          </span>
        );
        return (
          <li key={name}>
            {nested?.schema.properties ? (
              <details>
                <summary className="cursor-pointer">{line}</summary>
                <SchemaView schema={prop} components={components} seen={nextSeen} depth={depth + 1} />
              </details>
            ) : (
              line
            )}
          </li>
        );
      })}
    </ul>
  );
});
