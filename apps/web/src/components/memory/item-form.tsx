"use client";

import { type FormEvent, useState } from "react";
import { buttonClass, ErrorBox, secondaryButtonClass } from "@/components/page";
import { fieldErrors } from "@/app/signin/form-field";
import { inputClass, type ItemView, KIND_LABELS, labelClass } from "./ui";

export interface ItemDraft {
  namespace: string;
  kind: ItemView["kind"];
  key: string;
  content: string;
  thread: string;
  tags: string;
}

export const emptyDraft = (namespace = "global"): ItemDraft => ({
  namespace,
  kind: "memory",
  key: "",
  content: "",
  thread: "",
  tags: "",
});
export const draftOf = (i: ItemView): ItemDraft => ({
  namespace: i.namespace,
  kind: i.kind,
  key: i.key,
  content: i.content,
  thread: i.thread ?? "",
  tags: i.tags.join(", "),
});
export const tagsOf = (s: string) =>
  s
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);

/** Add or edit one item; field errors from the server appear under their field. */
export function ItemForm({
  initial,
  title,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial: ItemDraft;
  title: string;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (d: ItemDraft) => void;
  onCancel: () => void;
}) {
  const [d, setD] = useState(initial);
  const errors = fieldErrors(error);
  const set = (k: keyof ItemDraft) => (e: { target: { value: string } }) =>
    setD({ ...d, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(d);
  };
  const err = (k: string) =>
    (errors[k] ?? errors[`patch.${k}`]) ? (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        {errors[k] ?? errors[`patch.${k}`]}
      </p>
    ) : null;
  const other = error && Object.keys(errors).length === 0 ? (error as Error).message : undefined;

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-3 rounded-lg border border-brand-100 bg-brand-50/40 p-4 dark:border-slate-700 dark:bg-slate-800/40"
      aria-label={title}
    >
      <h3 className="text-sm font-semibold">{title}</h3>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="space-y-1">
          <label htmlFor="item-key" className={labelClass}>
            Title
          </label>
          <input
            id="item-key"
            className={inputClass}
            value={d.key}
            onChange={set("key")}
            aria-invalid={!!errors.key || undefined}
          />
          {err("key")}
        </div>
        <div className="space-y-1">
          <label htmlFor="item-kind" className={labelClass}>
            Kind
          </label>
          <select id="item-kind" className={inputClass} value={d.kind} onChange={set("kind")}>
            {Object.entries(KIND_LABELS).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor="item-namespace" className={labelClass}>
            Namespace
          </label>
          <input id="item-namespace" className={inputClass} value={d.namespace} onChange={set("namespace")} />
          {err("namespace")}
        </div>
      </div>
      <div className="space-y-1">
        <label htmlFor="item-content" className={labelClass}>
          Content
        </label>
        <textarea
          id="item-content"
          rows={4}
          className={inputClass}
          value={d.content}
          onChange={set("content")}
        />
        {err("content")}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1">
          <label htmlFor="item-tags" className={labelClass}>
            Tags (comma-separated)
          </label>
          <input id="item-tags" className={inputClass} value={d.tags} onChange={set("tags")} />
        </div>
        <div className="space-y-1">
          <label htmlFor="item-thread" className={labelClass}>
            Thread (optional)
          </label>
          <input id="item-thread" className={inputClass} value={d.thread} onChange={set("thread")} />
        </div>
      </div>
      {other ? <ErrorBox message={other} /> : null}
      <div className="flex gap-2">
        <button type="submit" className={buttonClass} disabled={pending || !d.key.trim()}>
          {submitLabel}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
