/** Set / Edit Fields, Split Out. */
import { type MapContext, type Mapper, obj, str } from "./types";

type Field = { name: string; value: unknown };

/** A typed n8n value: numeric text of a number field becomes a number, "true" a boolean. */
function typed(value: unknown, type: string | undefined): unknown {
  if (typeof value !== "string" || value.startsWith("=")) return value;
  if (type === "number" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
  if ((type === "object" || type === "array") && value.trim()) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/** The fields of each Set version: v3.3+ assignments, v3.0–3.2 fields.values, v1–2 typed lists. */
function fieldsOf(ctx: MapContext): Field[] | { unsupported: string } {
  const p = ctx.params;
  if (p.mode === "raw") {
    const text = str(p.jsonOutput) ?? "{}";
    if (text.startsWith("="))
      return { unsupported: "a Set node in JSON mode with expressions: rewrite it as fields" };
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      return Object.entries(parsed).map(([name, value]) => ({ name, value }));
    } catch {
      return { unsupported: "a Set node in JSON mode whose JSON does not parse" };
    }
  }
  const assignments = obj(p.assignments).assignments;
  if (Array.isArray(assignments))
    return assignments.map((a: Record<string, unknown>) => ({
      name: String(a.name),
      value: typed(a.value, str(a.type)),
    }));
  const values = obj(p.fields).values;
  if (Array.isArray(values))
    return values.map((v: Record<string, unknown>) => {
      const type = str(v.type)?.replace(/Value$/, "") ?? "string";
      return { name: String(v.name), value: typed(v[`${type}Value`], type) };
    });
  const lists = obj(p.values);
  return ["string", "number", "boolean"].flatMap((type) =>
    ((lists[type] as Record<string, unknown>[] | undefined) ?? []).map((v) => ({
      name: String(v.name),
      value: typed(v.value, type),
    })),
  );
}

export const set: Mapper = (ctx) => {
  const fields = fieldsOf(ctx);
  if ("unsupported" in fields) return fields;
  if (fields.length === 0) return { type: "flow.noop", config: {} };
  const p = ctx.params;
  const v = ctx.n8n.typeVersion;
  // v3.3+ keeps other fields only when asked; 3.0–3.2 say include: all|none|…; v1–2 say keepOnlySet.
  let keepOnlySet: boolean;
  if (v >= 3.3) keepOnlySet = p.includeOtherFields !== true;
  else if (v >= 3) keepOnlySet = p.include === "none";
  else keepOnlySet = p.keepOnlySet === true;
  if (p.include === "selected" || p.include === "except")
    ctx.loss("include", `"${String(p.include)}" other fields became "all" other fields`);
  const options = obj(p.options);
  if (options.dotNotation === false)
    ctx.loss("options.dotNotation", "dots in field names always reach into objects here");
  return {
    type: "data.set",
    config: {
      fields: fields.map((f, i) => ({ name: f.name, value: ctx.value(f.value, `fields.${i}.value`) })),
      keepOnlySet,
    },
  };
};

export const splitOut: Mapper = (ctx) => {
  const p = ctx.params;
  const names = String(p.fieldToSplitOut ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) return { unsupported: "Split Out names no field" };
  if (names.length > 1) ctx.loss("fieldToSplitOut", `only the first of ${names.length} fields is split`);
  const path = names[0]!.replace(/^\$json\./, "");
  const options = obj(p.options);
  const field = str(options.destinationFieldName) ?? path.split(".").pop()!;
  if (p.include && p.include !== "noOtherFields")
    ctx.loss("include", "the other fields of the item are not copied onto each element");
  return { type: "flow.split", config: { path, field } };
};
