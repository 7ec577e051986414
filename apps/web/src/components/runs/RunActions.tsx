"use client";

import { isFinishedRunStatus } from "@switchyard/contracts/runs";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { ErrorBox, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";

/** Cancel, re-run with the same payload, open the flow in the editor with this run's data. */
export function RunActions({
  run,
}: {
  run: { id: string; flowId: string; status: string; errorNodeId?: string | null };
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const qc = useQueryClient();
  const cancel = useMutation(
    trpc.run.cancel.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.run.get.queryKey({ id: run.id }) }),
    }),
  );
  const rerun = useMutation(
    trpc.run.rerun.mutationOptions({ onSuccess: (r) => router.push(`/runs/${r.runId}`) }),
  );
  const retry = useMutation(
    trpc.run.retry.mutationOptions({ onSuccess: (r) => router.push(`/runs/${r.runId}`) }),
  );
  const error = cancel.error ?? rerun.error ?? retry.error;
  // Only a run that failed at a step has a step to start again from.
  const retriable = (run.status === "failed" || run.status === "timed_out") && !!run.errorNodeId;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {!isFinishedRunStatus(run.status) ? (
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={cancel.isPending}
          onClick={() => cancel.mutate({ id: run.id })}
        >
          {cancel.isPending ? "Cancelling…" : "Cancel run"}
        </button>
      ) : null}
      {retriable ? (
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={retry.isPending}
          onClick={() => retry.mutate({ id: run.id })}
        >
          {retry.isPending ? "Starting…" : `Retry from ${run.errorNodeId}`}
        </button>
      ) : null}
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={rerun.isPending}
        onClick={() => rerun.mutate({ id: run.id })}
      >
        {rerun.isPending ? "Starting…" : "Re-run"}
      </button>
      <Link className={secondaryButtonClass} href={`/flows/${run.flowId}?pinRun=${run.id}`}>
        Open in editor with this data
      </Link>
      {error ? <ErrorBox message={error.message} /> : null}
    </div>
  );
}
