"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { EmptyState, ErrorBox, PageHeader, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { filtersFromParams, paramsFromFilters, type RunFilters } from "./run-filters";
import { RunFilterBar } from "./RunFilterBar";
import { StorageWarning } from "./StorageWarning";
import { StatusBadge } from "./status";
import { formatMs } from "./trace-model";

const PAGE_SIZE = 50;
const LIVE_REFRESH_MS = 2_000;

/** All runs (or one flow's), filtered and sorted from the URL, paged with a stable cursor. */
export function RunList() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = useMemo(() => filtersFromParams(new URLSearchParams(params.toString())), [params]);
  const { sort, ...countFilter } = filters;
  const setFilters = (f: RunFilters) => router.replace(`${pathname}${paramsFromFilters(f)}`);

  const counts = useQuery({
    ...trpc.run.counts.queryOptions(countFilter),
    // Refresh while anything is queued, running or waiting; stop once all is settled.
    refetchInterval: (q) => ((q.state.data?.live ?? 0) > 0 ? LIVE_REFRESH_MS : false),
  });
  const live = (counts.data?.live ?? 0) > 0;
  const runs = useInfiniteQuery({
    ...trpc.run.list.infiniteQueryOptions(
      { ...filters, limit: PAGE_SIZE },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
  const flows = useQuery(trpc.flow.list.queryOptions());
  const storage = useQuery(trpc.run.retention.storage.queryOptions());
  const rows = runs.data?.pages.flatMap((p) => p.runs) ?? [];
  const flowName = filters.flowId ? flows.data?.find((f) => f.id === filters.flowId)?.name : undefined;

  return (
    <div>
      <PageHeader
        title={flowName ? `Runs of ${flowName}` : "Runs"}
        description={filters.flowId ? "Every run of this flow." : "Every run of every flow."}
        actions={
          <>
            {live ? (
              <span className="text-xs text-blue-600" data-testid="auto-refresh">
                auto-refreshing: {counts.data?.live} live
              </span>
            ) : null}
            <Link href="/settings/retention" className="text-sm text-brand-600 hover:underline">
              Retention
            </Link>
          </>
        }
      />
      <div className="space-y-4 px-8 py-6">
        {storage.data?.warning ? <StorageWarning message={storage.data.warning} link /> : null}
        <RunFilterBar filters={filters} counts={counts.data} flows={flows.data ?? []} onChange={setFilters} />
        {runs.error ? <ErrorBox message={runs.error.message} /> : null}
        {counts.error && counts.error.message !== runs.error?.message ? (
          <ErrorBox message={counts.error.message} />
        ) : null}
        {runs.isPending && !runs.error ? (
          <p className="text-sm text-slate-500" data-testid="runs-loading">
            {filters.search ? `Searching for “${filters.search}”…` : "Loading runs…"}
          </p>
        ) : null}
        {runs.data && rows.length === 0 && !runs.hasNextPage ? (
          <EmptyState title="No runs match">
            Change the filters, or run a flow: runs appear here as soon as a trigger fires.
          </EmptyState>
        ) : null}
        {rows.length > 0 ? (
          <table
            data-testid="runs-table"
            className="w-full overflow-hidden rounded-xl border border-slate-200 bg-white text-sm dark:border-slate-800 dark:bg-slate-900"
          >
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
              {rows.map((r) => (
                <tr
                  key={r.id}
                  data-testid="run-row"
                  data-run-id={r.id}
                  className="border-t border-slate-100 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800/50"
                >
                  <td className="px-4 py-2">
                    <Link href={`/runs/${r.id}`} className="font-medium text-brand-600 hover:underline">
                      {r.flow.name}
                    </Link>
                    <div className="font-mono text-[10px] text-slate-400">{r.id}</div>
                  </td>
                  <td className="px-4 py-2">
                    <StatusBadge status={r.status} />
                    {r.errorMessage ? (
                      <div className="mt-0.5 max-w-md truncate text-xs text-red-600" title={r.errorMessage}>
                        {r.errorMessage}
                      </div>
                    ) : null}
                  </td>
                  <td className="px-4 py-2">{r.channel}</td>
                  <td className="px-4 py-2">{new Date(r.startedAt ?? r.createdAt).toLocaleString()}</td>
                  <td className="px-4 py-2 tabular-nums">{formatMs(r.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {filters.search && runs.hasNextPage && (runs.data?.pages.at(-1)?.runs.length ?? 0) < PAGE_SIZE ? (
          <p className="text-sm text-slate-500" data-testid="search-partial">
            {rows.length === 0 ? "No match yet: " : ""}a search reads a bounded number of matching runs at a
            time, and this filter let few of them through. Load more to search older runs.
          </p>
        ) : null}
        {runs.hasNextPage ? (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={runs.isFetchingNextPage}
            onClick={() => void runs.fetchNextPage()}
          >
            {runs.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        ) : null}
      </div>
    </div>
  );
}
