"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ErrorBox, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { JobProgress } from "./job-progress";
import { useMemoryJob } from "./use-job";

interface Status {
  items: number;
  byKind: Record<string, number>;
  embedderId: string;
  vectorBackend: string;
  pendingEmbeddings: number;
}

/** Counts, the embedder in use, and a re-index button when items lack vectors (after an embedder change). */
export function StatusBar({ status, canWrite }: { status: Status; canWrite: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [jobId, setJobId] = useState<string>();
  const job = useMemoryJob(jobId);
  const reembed = useMutation(trpc.memory.reembed.mutationOptions({ onSuccess: (r) => setJobId(r.jobId) }));
  const state = job.data?.state;
  useEffect(() => {
    if (state && state !== "running") void queryClient.invalidateQueries({ queryKey: trpc.memory.pathKey() });
  }, [state, queryClient, trpc]);

  return (
    <div className="space-y-2 text-sm text-slate-600 dark:text-slate-300" data-testid="memory-status">
      <p>
        <strong>{status.items}</strong> items ({status.byKind.memory ?? 0} notes,{" "}
        {status.byKind.transcript ?? 0} transcript lines, {status.byKind.person ?? 0} people,{" "}
        {status.byKind.profile ?? 0} profile facts) · embedder{" "}
        <code className="font-mono text-xs">{status.embedderId}</code> · vectors in {status.vectorBackend}
      </p>
      {status.pendingEmbeddings > 0 ? (
        <p className="flex items-center gap-3 text-amber-700 dark:text-amber-300">
          {status.pendingEmbeddings} items have no vector from this embedder yet: semantic search cannot see
          them.
          {canWrite ? (
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={reembed.isPending || state === "running"}
              onClick={() => reembed.mutate()}
            >
              Re-index now
            </button>
          ) : null}
        </p>
      ) : null}
      {reembed.error ? <ErrorBox message={reembed.error.message} /> : null}
      {job.data ? <JobProgress job={job.data} summary="Re-indexed." /> : null}
    </div>
  );
}
