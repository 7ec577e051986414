"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { EmptyState, ErrorBox, PageHeader, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";

function describe(details: unknown): string {
  if (!details || typeof details !== "object") return "";
  return Object.entries(details as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
    .join(" · ");
}

export default function AuditPage() {
  const trpc = useTRPC();
  const log = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(
      { limit: 50 },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <div>
      <PageHeader
        title="Audit log"
        description="Sign-ins, changes to users and API keys, and other changes people made."
      />
      <div className="space-y-4 px-8 py-6">
        {log.error ? <ErrorBox message={log.error.message} /> : null}
        {log.data && entries.length === 0 ? <EmptyState title="Nothing recorded yet" /> : null}
        {entries.length > 0 ? (
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-slate-200 text-slate-500 dark:border-slate-800">
                <tr>
                  <th className="px-4 py-2 font-medium">When</th>
                  <th className="px-4 py-2 font-medium">Who</th>
                  <th className="px-4 py-2 font-medium">What</th>
                  <th className="px-4 py-2 font-medium">Details</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {entries.map((e) => (
                  <tr key={e.id} data-testid="audit-row">
                    <td className="whitespace-nowrap px-4 py-2 text-slate-500">
                      {new Date(e.at).toLocaleString()}
                    </td>
                    <td className="px-4 py-2">{e.actorEmail ?? (e.actorId ? "deleted user" : "—")}</td>
                    <td className="px-4 py-2 font-mono text-xs">{e.action}</td>
                    <td className="max-w-md truncate px-4 py-2 text-slate-500" title={describe(e.details)}>
                      {describe(e.details)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {log.hasNextPage ? (
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() => void log.fetchNextPage()}
            disabled={log.isFetchingNextPage}
          >
            Load older entries
          </button>
        ) : null}
      </div>
    </div>
  );
}
