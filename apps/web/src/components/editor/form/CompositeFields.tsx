"use client";

import type { JsonSchema } from "@switchyard/contracts";
import { domId, type FieldProps, useForm } from "./form-context";
import { SchemaField } from "./SchemaField";
import {
  asRecord,
  discriminatorOf,
  enumOptions,
  fieldKind,
  humanize,
  variantsOf,
  withKey,
} from "./schema-util";

const smallButton =
  "rounded-md border border-slate-300 px-2 py-0.5 text-xs text-slate-600 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800";
const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** Nested object: its properties as fields, inside a light frame. An object left empty becomes "not set". */
export function ObjectField({ schema, value, onChange, path, required, bare }: FieldProps) {
  const obj = asRecord(value);
  const set = (key: string, v: unknown) => {
    const next = withKey(value, key, v);
    onChange(next && Object.keys(next).length === 0 && !required ? undefined : next);
  };
  return (
    <fieldset
      className={
        bare || !path ? "space-y-3" : "space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
      }
    >
      {path && schema.description ? (
        <p className="text-[11px] text-slate-500 dark:text-slate-400">{schema.description}</p>
      ) : null}
      {Object.entries(schema.properties ?? {}).map(([key, child]) => (
        <SchemaField
          key={key}
          name={key}
          schema={child}
          value={obj[key]}
          onChange={(v) => set(key, v)}
          path={join(path, key)}
          required={schema.required?.includes(key)}
        />
      ))}
    </fieldset>
  );
}

/** `Record<string, T>`: editable key/value rows, order kept. */
export function RecordField({ schema, value, onChange, path, name }: FieldProps) {
  const form = useForm();
  const entries = Object.entries(asRecord(value));
  const valueSchema = (
    typeof schema.additionalProperties === "object" ? schema.additionalProperties : {}
  ) as JsonSchema;
  const write = (next: [string, unknown][]) => onChange(next.length ? Object.fromEntries(next) : undefined);
  const freshKey = () => {
    const keys = new Set(entries.map(([k]) => k));
    for (let i = 1; ; i++) if (!keys.has(i === 1 ? "key" : `key${i}`)) return i === 1 ? "key" : `key${i}`;
  };
  return (
    <div className="space-y-1.5">
      {entries.length === 0 ? <p className="text-xs text-slate-400">No entries.</p> : null}
      {entries.map(([k, v], i) => (
        <div key={`${i}-${entries.length}`} className="flex items-start gap-1.5">
          <input
            aria-label={`${humanize(name)} key ${i + 1}`}
            defaultValue={k}
            onBlur={(e) => {
              const nk = e.target.value.trim();
              if (!nk || nk === k || entries.some(([other]) => other === nk)) {
                e.target.value = k;
                return;
              }
              write(entries.map(([ek, ev]) => (ek === k ? [nk, ev] : [ek, ev])));
              form.onFieldBlur();
            }}
            className="w-2/5 rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs dark:border-slate-700 dark:bg-slate-800"
          />
          <div className="min-w-0 flex-1">
            <SchemaField
              bare
              name={k}
              schema={valueSchema}
              value={v}
              onChange={(nv) => write(entries.map(([ek, ev]) => (ek === k ? [ek, nv ?? ""] : [ek, ev])))}
              path={join(path, k)}
            />
          </div>
          <button
            type="button"
            aria-label={`Remove ${k}`}
            className={smallButton}
            onClick={() => write(entries.filter(([ek]) => ek !== k))}
          >
            ✕
          </button>
        </div>
      ))}
      <button type="button" className={smallButton} onClick={() => write([...entries, [freshKey(), ""]])}>
        + Add {humanize(name).toLowerCase()} entry
      </button>
    </div>
  );
}

function emptyValue(schema: JsonSchema): unknown {
  const kind = fieldKind(schema, "");
  if (kind === "number" || kind === "integer") return 0;
  if (kind === "boolean") return false;
  if (kind === "enum") return enumOptions(schema)[0];
  if (kind === "object" || kind === "record") return {};
  if (kind === "array") return [];
  if (kind === "union") {
    const variants = variantsOf(schema) ?? [];
    const disc = discriminatorOf(variants);
    return disc ? { [disc]: variants[0]?.properties?.[disc]?.const } : {};
  }
  return "";
}

/** Lists: a checkbox group for lists of choices, otherwise rows with add/remove. */
export function ArrayField({ schema, value, onChange, path, name }: FieldProps) {
  const form = useForm();
  const items = Array.isArray(value) ? value : [];
  const itemSchema = schema.items ?? {};
  if (fieldKind(itemSchema, "") === "enum") {
    const current = Array.isArray(value) ? value : Array.isArray(schema.default) ? schema.default : [];
    return (
      <fieldset className="flex flex-wrap gap-x-3 gap-y-1" aria-label={humanize(name)}>
        {enumOptions(itemSchema).map((o) => (
          <label key={String(o)} className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              id={domId(form.idPrefix, join(path, String(o)))}
              checked={current.includes(o)}
              onChange={(e) => onChange(e.target.checked ? [...current, o] : current.filter((x) => x !== o))}
            />
            {String(o)}
          </label>
        ))}
      </fieldset>
    );
  }
  const write = (next: unknown[]) => onChange(next);
  return (
    <div className="space-y-1.5">
      {items.length === 0 ? <p className="text-xs text-slate-400">Empty list.</p> : null}
      {items.map((item, i) => (
        <div key={i} className="flex items-start gap-1.5">
          <div className="min-w-0 flex-1">
            <SchemaField
              bare
              name={`${name} ${i + 1}`}
              schema={itemSchema}
              value={item}
              onChange={(v) => write(items.map((x, j) => (j === i ? (v ?? emptyValue(itemSchema)) : x)))}
              path={join(path, i)}
            />
          </div>
          <button
            type="button"
            aria-label={`Remove item ${i + 1}`}
            className={smallButton}
            onClick={() => write(items.filter((_, j) => j !== i))}
          >
            ✕
          </button>
        </div>
      ))}
      <button type="button" className={smallButton} onClick={() => write([...items, emptyValue(itemSchema)])}>
        + Add item
      </button>
    </div>
  );
}

/** Discriminated union: a select of the variant, then that variant's own fields. */
export function UnionField({ schema, value, onChange, path, name, required }: FieldProps) {
  const form = useForm();
  const variants = variantsOf(schema) ?? [];
  const disc = discriminatorOf(variants) ?? "type";
  const obj = asRecord(value);
  const fallback = asRecord(schema.default)[disc];
  const current = obj[disc] ?? fallback;
  const variant = variants.find((v) => v.properties?.[disc]?.const === current);
  const rest: JsonSchema | undefined = variant && {
    ...variant,
    description: undefined,
    properties: Object.fromEntries(Object.entries(variant.properties ?? {}).filter(([k]) => k !== disc)),
  };
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <select
        id={domId(form.idPrefix, join(path, disc))}
        aria-label={`${humanize(name)} ${humanize(disc).toLowerCase()}`}
        value={current === undefined ? "" : String(current)}
        onChange={(e) => {
          const v = variants.find((x) => String(x.properties?.[disc]?.const) === e.target.value);
          onChange(v ? { [disc]: v.properties?.[disc]?.const } : undefined);
        }}
        className="w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-800"
      >
        {current === undefined ? <option value="">{required ? "Choose…" : "Not set"}</option> : null}
        {variants.map((v) => {
          const c = String(v.properties?.[disc]?.const);
          const d = v.properties?.[disc]?.description;
          return (
            <option key={c} value={c}>
              {d ? `${c} — ${d}` : c}
            </option>
          );
        })}
      </select>
      {rest && Object.keys(rest.properties ?? {}).length ? (
        <ObjectField
          bare
          name={name}
          schema={rest}
          value={obj}
          onChange={(v) => onChange({ ...asRecord(v), [disc]: current })}
          path={path}
          required
        />
      ) : null}
    </div>
  );
}
