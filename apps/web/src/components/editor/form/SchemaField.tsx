"use client";

import { type ReactNode, useEffect, useState } from "react";
import { AgentRefPicker } from "./AgentRefPicker";
import { ArrayField, ObjectField, RecordField, UnionField } from "./CompositeFields";
import { ExpressionInput } from "./ExpressionInput";
import { domId, type FieldProps, useForm } from "./form-context";
import { describeDefault, enumOptions, fieldKind, humanize, isExpression } from "./schema-util";

const inputClass =
  "w-full rounded-md border bg-white px-2.5 py-1.5 text-sm dark:bg-slate-800 border-slate-300 dark:border-slate-700 aria-[invalid=true]:border-red-400";

/** One config field, chosen by its JSON Schema; any scalar field can hold an expression instead. */
export function SchemaField(props: FieldProps) {
  const { name, schema, value, onChange, path, required, bare } = props;
  const form = useForm();
  const kind = fieldKind(schema, name);
  const id = domId(form.idPrefix, path);
  const problems = form.problems.get(path) ?? [];
  const invalid = problems.length > 0;
  const label = schema.title ?? humanize(name);
  const scalar = kind === "number" || kind === "integer" || kind === "boolean" || kind === "enum";
  const asExpression = isExpression(value) && kind !== "string" && kind !== "code";

  let control: ReactNode;
  if (schema["x-picker"] === "agent" && !isExpression(value)) {
    control = <AgentRefPicker id={id} value={value} onChange={onChange} invalid={invalid} />;
  } else if (asExpression) {
    control = (
      <ExpressionInput
        id={id}
        value={value}
        onChange={onChange}
        onBlur={form.onFieldBlur}
        nodeIds={form.nodeIds}
        invalid={invalid}
        field={path}
      />
    );
  } else if (kind === "string" || kind === "code") {
    control = (
      <ExpressionInput
        id={id}
        value={typeof value === "string" ? value : value === undefined ? "" : String(value)}
        onChange={(v) => onChange(v === "" ? undefined : v)}
        onBlur={form.onFieldBlur}
        nodeIds={form.nodeIds}
        invalid={invalid}
        placeholder={describeDefault(schema) ?? (kind === "code" ? "" : 'Text, or "=" for an expression')}
        multiline={kind === "code"}
        field={path}
        noPreview={kind === "code"}
      />
    );
    if (kind === "code")
      control = (
        <div className="[&_textarea]:min-h-48 [&_textarea]:font-mono [&_textarea]:text-xs">{control}</div>
      );
  } else if (kind === "number" || kind === "integer") {
    control = (
      <NumberInput
        id={id}
        integer={kind === "integer"}
        value={value}
        onChange={onChange}
        placeholder={describeDefault(schema)}
        invalid={invalid}
      />
    );
  } else if (kind === "boolean") {
    const checked = typeof value === "boolean" ? value : schema.default === true;
    control = (
      <label className="flex items-center gap-2 text-sm">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={invalid || undefined}
        />
        {checked ? "Yes" : "No"}
        {value === undefined && schema.default !== undefined ? (
          <span className="text-xs text-slate-400">(default)</span>
        ) : null}
      </label>
    );
  } else if (kind === "enum") {
    const options = enumOptions(schema);
    control = (
      <select
        id={id}
        className={inputClass}
        aria-invalid={invalid || undefined}
        value={value === undefined ? "" : JSON.stringify(value)}
        onChange={(e) => onChange(e.target.value === "" ? undefined : JSON.parse(e.target.value))}
      >
        <option value="">
          {schema.default !== undefined
            ? `Default (${describeDefault(schema)})`
            : required
              ? "Choose…"
              : "Not set"}
        </option>
        {options.map((o) => (
          <option key={JSON.stringify(o)} value={JSON.stringify(o)}>
            {String(o)}
          </option>
        ))}
      </select>
    );
  } else if (kind === "object") control = <ObjectField {...props} />;
  else if (kind === "record") control = <RecordField {...props} />;
  else if (kind === "array") control = <ArrayField {...props} />;
  else if (kind === "union") control = <UnionField {...props} />;
  else control = <JsonInput id={id} value={value} onChange={onChange} invalid={invalid} />;

  const toggle = scalar ? (
    <button
      type="button"
      title={asExpression ? "Use a fixed value" : "Use an expression"}
      aria-label={`${asExpression ? "Fixed value for" : "Expression for"} ${label}`}
      aria-pressed={asExpression}
      onClick={() =>
        onChange(asExpression ? undefined : `=${value === undefined ? "" : JSON.stringify(value)}`)
      }
      className={`rounded px-1.5 font-mono text-[11px] italic ${asExpression ? "bg-brand-500 text-white" : "text-slate-400 hover:bg-slate-100 dark:hover:bg-slate-800"}`}
    >
      fx
    </button>
  ) : null;

  return (
    <div data-field={path} className="space-y-1">
      {bare ? null : (
        <div className="flex items-center justify-between gap-2">
          <span className="text-xs font-medium text-slate-700 dark:text-slate-300">
            <label htmlFor={id}>{label}</label>
            {required ? (
              <span title="Required" className="text-red-500">
                {" "}
                *
              </span>
            ) : null}
          </span>
          {toggle}
        </div>
      )}
      {control}
      {problems.map((p) => (
        <p
          key={p}
          role="alert"
          data-testid="field-problem"
          className="text-xs text-red-600 dark:text-red-400"
        >
          {p}
        </p>
      ))}
      {!bare && schema.description && kind !== "object" ? (
        <p className="text-[11px] text-slate-500 dark:text-slate-400">{schema.description}</p>
      ) : null}
    </div>
  );
}

function NumberInput(p: {
  id: string;
  integer: boolean;
  value: unknown;
  onChange(v: unknown): void;
  placeholder?: string;
  invalid: boolean;
}) {
  const form = useForm();
  const [text, setText] = useState(p.value === undefined ? "" : String(p.value));
  useEffect(
    () => setText((t) => (Number(t) === p.value ? t : p.value === undefined ? "" : String(p.value))),
    [p.value],
  );
  return (
    <input
      id={p.id}
      type="number"
      step={p.integer ? 1 : "any"}
      className={inputClass}
      value={text}
      placeholder={p.placeholder}
      aria-invalid={p.invalid || undefined}
      onBlur={form.onFieldBlur}
      onChange={(e) => {
        setText(e.target.value);
        const n = e.target.value === "" ? undefined : Number(e.target.value);
        p.onChange(n === undefined || Number.isNaN(n) ? undefined : n);
      }}
    />
  );
}

/** Free-form JSON (for `unknown` values such as a JSON body); parsed on every change, kept as text until valid. */
function JsonInput(p: { id: string; value: unknown; onChange(v: unknown): void; invalid: boolean }) {
  const form = useForm();
  const show = (v: unknown) => (v === undefined ? "" : JSON.stringify(v, null, 2));
  const [text, setText] = useState(show(p.value));
  const [error, setError] = useState<string | null>(null);
  if (isExpression(p.value)) {
    return (
      <ExpressionInput
        id={p.id}
        value={p.value}
        onChange={p.onChange}
        onBlur={form.onFieldBlur}
        nodeIds={form.nodeIds}
        invalid={p.invalid}
      />
    );
  }
  return (
    <div>
      <textarea
        id={p.id}
        rows={3}
        spellCheck={false}
        className={`${inputClass} font-mono text-xs`}
        value={text}
        placeholder='JSON, e.g. {"id": 42}, or "=" for an expression'
        aria-invalid={p.invalid || error !== null || undefined}
        onBlur={form.onFieldBlur}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          if (t.trim() === "" || t.startsWith("=")) {
            setError(null);
            p.onChange(t.trim() === "" ? undefined : t);
            return;
          }
          try {
            p.onChange(JSON.parse(t));
            setError(null);
          } catch (err) {
            setError(`Not JSON yet: ${(err as Error).message}`);
          }
        }}
      />
      {error ? <p className="text-xs text-amber-600 dark:text-amber-400">{error}</p> : null}
    </div>
  );
}
