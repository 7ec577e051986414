"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type ChangeEvent, useState } from "react";
import { buttonClass, ErrorBox, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";

const sectionTitle = "text-xs font-semibold uppercase tracking-wide text-slate-500";

/**
 * "Import from n8n": an n8n workflow export (uploaded or pasted) becomes a new inactive flow; the
 * import report shows how every node was mapped, what was lost and what must be resolved before the
 * flow can be activated.
 */
export function N8nImport({ onClose }: { onClose(): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const importer = useMutation(
    trpc.api.flows.importN8n.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.flow.list.queryKey() }),
    }),
  );
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (file) setText(await file.text());
  };
  const result = importer.data;
  const blocking = result ? result.problems.length : 0;
  return (
    <section
      aria-label="Import from n8n"
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-center">
        <h2 className="text-sm font-semibold">Import from n8n</h2>
        <button type="button" className="ml-auto text-sm text-slate-500 hover:underline" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="text-sm text-slate-500">
        Upload or paste a workflow exported from n8n (Download, or copy the nodes). It becomes a new inactive
        flow; nodes without an equivalent become placeholders to replace before activating.
      </p>
      <div className="flex items-center gap-3">
        <input type="file" accept="application/json,.json" aria-label="n8n workflow file" onChange={onFile} />
      </div>
      <textarea
        aria-label="n8n workflow JSON"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder='{ "name": "My workflow", "nodes": [...], "connections": {...} }'
        rows={6}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-800"
      />
      <button
        type="button"
        className={buttonClass}
        disabled={!text.trim() || importer.isPending}
        onClick={() => importer.mutate({ workflow: text })}
      >
        {importer.isPending ? "Importing…" : "Import"}
      </button>
      {importer.error ? <ErrorBox message={`Could not import: ${importer.error.message}`} /> : null}
      {result ? (
        <div data-testid="n8n-report" className="space-y-3 text-sm">
          <p role="status">
            Imported “
            <Link href={`/flows/${result.flow.id}`} className="font-medium hover:underline">
              {result.flow.name}
            </Link>
            ” as an inactive flow
            {blocking
              ? ` with ${blocking} problem${blocking > 1 ? "s" : ""} to resolve before it can be activated.`
              : "; it can be activated."}
          </p>
          <div>
            <h3 className={sectionTitle}>Mappings ({result.report.nodes.length})</h3>
            <table className="mt-1 w-full text-left">
              <thead className="text-xs text-slate-500">
                <tr>
                  <th className="py-1 pr-3">n8n node</th>
                  <th className="py-1 pr-3">n8n type</th>
                  <th className="py-1">became</th>
                </tr>
              </thead>
              <tbody>
                {result.report.nodes.map((n) => (
                  <tr
                    key={n.id}
                    data-testid="n8n-mapping"
                    className="border-t border-slate-100 dark:border-slate-800"
                  >
                    <td className="py-1 pr-3">{n.n8nName}</td>
                    <td className="py-1 pr-3 font-mono text-xs">{n.n8nType}</td>
                    <td className="py-1 font-mono text-xs">
                      {n.status === "placeholder" ? (
                        <span className="rounded bg-amber-100 px-1 text-amber-900 dark:bg-amber-900 dark:text-amber-100">
                          placeholder
                        </span>
                      ) : (
                        n.type
                      )}{" "}
                      ({n.id})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div>
            <h3 className={sectionTitle}>Losses ({result.report.losses.length})</h3>
            <ul className="mt-1 list-disc pl-5" data-testid="n8n-losses">
              {result.report.losses.map((l, i) => (
                <li key={i}>
                  {l.node ? <strong>{l.node}</strong> : null}
                  {l.field ? ` (${l.field})` : ""}
                  {l.node || l.field ? ": " : ""}
                  {l.message}
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3 className={sectionTitle}>
              Problems ({result.report.problems.length + result.problems.length})
            </h3>
            <ul className="mt-1 list-disc pl-5 text-red-700 dark:text-red-300" data-testid="n8n-problems">
              {result.report.problems.map((p, i) => (
                <li key={`r${i}`}>
                  {p.node ? <strong>{p.node}</strong> : null}
                  {p.field ? ` (${p.field})` : ""}
                  {p.node || p.field ? ": " : ""}
                  {p.message}
                </li>
              ))}
              {result.problems.map((p, i) => (
                <li key={`v${i}`}>{p.message}</li>
              ))}
            </ul>
          </div>
          <Link href={`/flows/${result.flow.id}`} className={secondaryButtonClass}>
            Open the flow
          </Link>
        </div>
      ) : null}
    </section>
  );
}
