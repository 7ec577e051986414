"use client";

import { useQuery } from "@tanstack/react-query";
import { EmptyState, ErrorBox, PageHeader } from "@/components/page";
import { useTRPC } from "@/trpc/client";

const statusColour: Record<string, string> = {
  succeeded: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  failed: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  running: "bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200",
  queued: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
};

export default function RunsPage() {
  const trpc = useTRPC();
  // Poll while the page is open so live runs move without a reload.
  const runs = useQuery({ ...trpc.run.list.queryOptions({ limit: 100 }), refetchInterval: 2_000 });
  return (
    <div>
      <PageHeader title="Runs" description="Every run of every flow, newest first." />
      <div className="px-8 py-6">
        {runs.error ? <ErrorBox message={runs.error.message} /> : null}
        {runs.data && runs.data.runs.length === 0 ? (
          <EmptyState title="No runs yet">Runs appear here as soon as a trigger fires or you run a flow.</EmptyState>
        ) : null}
        {runs.data && runs.data.runs.length > 0 ? (
          <table className="w-full overflow-hidden rounded-xl border border-slate-200 bg-white text-sm dark:border-slate-800 dark:bg-slate-900">
            <thead className="bg-slate-50 text-left text-slate-500 dark:bg-slate-800 dark:text-slate-300">
              <tr>
                <th className="px-4 py-2 font-medium">Flow</th>
                <th className="px-4 py-2 font-medium">Status</th>
                <th className="px-4 py-2 font-medium">Channel</th>
                <th className="px-4 py-2 font-medium">Started</th>
                <th className="px-4 py-2 font-medium">Duration</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.runs.map((r) => (
                <tr key={r.id} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="px-4 py-2">{r.flow.name}</td>
                  <td className="px-4 py-2">
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusColour[r.status] ?? statusColour.queued}`}>{r.status}</span>
                    {r.errorMessage ? <span className="ml-2 text-xs text-red-600">{r.errorMessage}</span> : null}
                  </td>
                  <td className="px-4 py-2">{r.channel}</td>
                  <td className="px-4 py-2">{new Date(r.startedAt ?? r.createdAt).toLocaleString()}</td>
                  <td className="px-4 py-2">{r.durationMs != null ? `${r.durationMs} ms` : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </div>
  );
}
