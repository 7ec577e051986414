"use client";

import type { InputHTMLAttributes, ReactNode } from "react";

/** Field errors from a tRPC error: zod issues and account errors both arrive as `data.issues`. */
export function fieldErrors(error: unknown): Record<string, string> {
  const issues = (error as { data?: { issues?: { path: string; message: string }[] } } | null)?.data?.issues;
  const out: Record<string, string> = {};
  for (const i of issues ?? []) if (!(i.path in out)) out[i.path] = i.message;
  return out;
}

export const inputClass =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100 aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-800 dark:focus:ring-slate-700";

/** A labelled input with its error right under it, announced to screen readers. */
export function Field({
  id,
  label,
  error,
  hint,
  ...input
}: { id: string; label: string; error?: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={inputClass}
        {...input}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** Centered card for the pages shown before anyone is signed in. */
export function AuthCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center gap-2 text-lg font-semibold tracking-tight">
          <span className="grid h-7 w-7 place-items-center rounded-md bg-brand-500 text-sm font-bold text-white">
            S
          </span>
          Switchyard
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{intro}</p>
          <div className="mt-6">{children}</div>
        </div>
      </div>
    </div>
  );
}
