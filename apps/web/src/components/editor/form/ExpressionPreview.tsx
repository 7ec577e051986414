"use client";

import type { useExpressionHelp } from "./use-expression-help";

type Preview = NonNullable<ReturnType<typeof useExpressionHelp>["preview"]>;

const sourceText = (s: { kind: string; runId?: string }) =>
  s.kind === "run"
    ? `last run ${s.runId?.slice(-8)}`
    : s.kind === "pinned"
      ? "pinned data"
      : s.kind === "schema"
        ? "an example of the trigger's payload"
        : "no data yet";

/** The value an expression gives on the node's sample data, or its error, right under the field. */
export function ExpressionPreview({ preview }: { preview: Preview }) {
  if (preview.error)
    return (
      <p data-testid="expression-preview" className="mt-1 text-xs text-slate-500">
        No preview: {preview.error.message}
      </p>
    );
  const data = preview.data;
  if (!data) return null;
  return (
    <div data-testid="expression-preview" className="mt-1 space-y-0.5 text-xs">
      {data.ok ? (
        <pre
          data-testid="expression-value"
          className="max-h-32 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 px-2 py-1 font-mono text-slate-700 dark:bg-slate-800 dark:text-slate-200"
        >
          {data.value}
        </pre>
      ) : (
        <p data-testid="expression-error" role="alert" className="text-red-600 dark:text-red-400">
          {data.message}
        </p>
      )}
      <p className="text-slate-400">Preview on {sourceText(data.source)}</p>
    </div>
  );
}
