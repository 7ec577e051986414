"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/client";

/** Follows a memory job (import, re-index) by polling until it is done or failed. */
export function useMemoryJob(jobId: string | undefined) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.memory.job.queryOptions({ id: jobId ?? "" }),
    enabled: jobId !== undefined,
    refetchInterval: (q) => (q.state.data && q.state.data.state !== "running" ? false : 300),
    staleTime: 0,
  });
}
