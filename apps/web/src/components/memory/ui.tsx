"use client";

import type { ReactNode } from "react";
import { inputClass } from "@/app/signin/form-field";

export { inputClass };
export const labelClass = "block text-sm font-medium";
export const panelClass =
  "space-y-4 rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900";
export const dangerButtonClass =
  "inline-flex items-center gap-2 rounded-md border border-red-300 bg-white px-3 py-2 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-50 dark:border-red-900 dark:bg-slate-800 dark:text-red-300";

export const KIND_LABELS = {
  memory: "Note",
  transcript: "Transcript",
  person: "Person",
  profile: "Profile fact",
} as const;

/** The parts of a memory item every list shows the same way. */
export interface ItemView {
  id: string;
  namespace: string;
  kind: keyof typeof KIND_LABELS;
  key: string;
  content: string;
  thread: string | null;
  tags: string[];
  source: string | null;
  embedderId: string | null;
  updatedAt: string;
}

export function KindBadge({ kind }: { kind: ItemView["kind"] }) {
  return (
    <span
      data-testid="memory-kind"
      className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300"
    >
      {KIND_LABELS[kind]}
    </span>
  );
}

/** Namespace, thread, tags and source of an item, as small chips. */
export function ItemMeta({ item, children }: { item: ItemView; children?: ReactNode }) {
  const chip = "rounded-full border border-slate-200 px-2 py-0.5 dark:border-slate-700";
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
      <span className={chip} title="namespace">
        {item.namespace}
      </span>
      {item.thread ? (
        <span className={chip} title="thread">
          thread: {item.thread}
        </span>
      ) : null}
      {item.tags.map((t) => (
        <span
          key={t}
          className={`${chip} bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-slate-200`}
          data-testid="memory-tag"
        >
          #{t}
        </span>
      ))}
      {item.source ? (
        <span className="font-mono" title="source" data-testid="memory-source">
          {item.source}
        </span>
      ) : null}
      {item.embedderId === null ? (
        <span title="semantic search cannot see this item until it is re-indexed">no vector yet</span>
      ) : null}
      {children}
    </div>
  );
}
