"use client";

import { memo } from "react";
import { type Components, type Schema, SchemaView, typeLabel } from "./schema-view";

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  "x-switchyard-access"?: "public" | "read" | "write";
  parameters: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}

const methodColour: Record<string, string> = {
  get: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200",
  post: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  put: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  delete: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
};

const accessLabel = {
  public: "no key needed",
  read: "read scope",
  write: "write scope · owner or editor",
} as const;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mt-4">
      <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h4>
      {children}
    </section>
  );
}

/** One endpoint: method and path, what it does, who may call it, its inputs and its answers. */
export const OperationCard = memo(function OperationCard({
  method,
  path,
  op,
  components,
}: {
  method: string;
  path: string;
  op: Operation;
  components: Components;
}) {
  const access = op["x-switchyard-access"];
  const body = op.requestBody?.content["application/json"]?.schema;
  return (
    <article
      id={op.operationId}
      className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <header className="flex flex-wrap items-center gap-3">
        <span
          className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${methodColour[method] ?? ""}`}
        >
          {method}
        </span>
        <code className="font-mono text-sm font-semibold">/api/v1{path}</code>
        <span className="text-sm text-slate-600 dark:text-slate-300">{op.summary}</span>
        {access ? (
          <span className="ml-auto rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300">
            {accessLabel[access]}
          </span>
        ) : null}
      </header>
      {op.description ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{op.description}</p>
      ) : null}
      {op.parameters.length ? (
        <Section title="Parameters">
          <ul className="space-y-1 text-sm">
            {op.parameters.map((p) => (
              <li key={`${p.in}:${p.name}`}>
                <code className="font-mono font-semibold">{p.name}</code>
                <span className="ml-2 text-xs text-slate-500">{p.in}</span>
                {p.required ? (
                  <span className="ml-1 text-xs text-red-600 dark:text-red-400">required</span>
                ) : null}
                <code className="ml-2 font-mono text-xs text-brand-700 dark:text-brand-300">
                  {typeLabel(p.schema)}
                </code>
                {p.description ? (
                  <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">— {p.description}</span>
                ) : null}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {body ? (
        <Section title={`Request body (JSON${op.requestBody?.required ? "" : ", optional"})`}>
          <SchemaView schema={body} components={components} />
        </Section>
      ) : null}
      <Section title="Responses">
        <ul className="space-y-2 text-sm">
          {Object.entries(op.responses).map(([status, r]) => {
            const schema = r.content?.["application/json"]?.schema;
            const success = status.startsWith("2");
            return (
              <li key={status}>
                <span
                  className={`font-mono text-xs font-bold ${success ? "text-emerald-700 dark:text-emerald-300" : "text-slate-500"}`}
                >
                  {status}
                </span>
                <span className="ml-2 text-slate-600 dark:text-slate-300">{r.description}</span>
                {schema && success ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-xs text-slate-500">{typeLabel(schema)}</summary>
                    <SchemaView schema={schema} components={components} />
                  </details>
                ) : null}
              </li>
            );
          })}
        </ul>
      </Section>
    </article>
  );
});
