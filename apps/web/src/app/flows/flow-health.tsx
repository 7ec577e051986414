"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { StatusBadge } from "@/components/runs/status";
import { useTRPC } from "@/trpc/client";

const REFRESH_MS = 15_000;

/**
 * Trigger health and last run of one active flow. Mounted only for active rows, so a long list of drafts
 * costs nothing; two small queries per active flow, refreshed every 15 s.
 */
export function FlowHealth({ flowId }: { flowId: string }) {
  const trpc = useTRPC();
  const health = useQuery(
    trpc.flow.triggerHealth.queryOptions({ id: flowId }, { refetchInterval: REFRESH_MS }),
  );
  const last = useQuery(trpc.run.list.queryOptions({ flowId, limit: 1 }, { refetchInterval: REFRESH_MS }));
  // health() answers every flow's entry when asked without an id; with one it is one entry (or none yet).
  const h = health.data && !Array.isArray(health.data) ? health.data : null;
  const run = last.data?.runs[0];
  return (
    <span className="flex items-center gap-2">
      {h ? (
        <span
          data-testid="trigger-health"
          data-status={h.status}
          title={
            h.status === "error"
              ? (h.lastError ?? "the trigger failed")
              : h.lastEventAt
                ? `last event ${new Date(h.lastEventAt).toLocaleString()}`
                : "waiting for the first event"
          }
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${
            h.status === "listening"
              ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
              : "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200"
          }`}
        >
          {h.status}
        </span>
      ) : null}
      {run ? (
        <Link
          href={`/runs/${run.id}`}
          data-testid="last-run"
          title={`Last run ${new Date(run.createdAt).toLocaleString()}`}
          className="text-xs text-slate-500 hover:underline"
        >
          last run <StatusBadge status={run.status} />
        </Link>
      ) : null}
    </span>
  );
}
