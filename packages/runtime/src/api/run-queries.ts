import type { Host } from "../host";
import { terminalStatuses } from "../queue/types";
import type { RunRow } from "./views";

export interface RunFilter {
  flowId?: string;
  status?: string;
  channel?: string;
  since?: Date;
  until?: Date;
  limit: number;
  cursor?: string;
}

const summaryFields = {
  id: true,
  flowId: true,
  flowVersion: true,
  status: true,
  channel: true,
  createdAt: true,
  startedAt: true,
  endedAt: true,
  durationMs: true,
  errorCode: true,
  errorMessage: true,
  errorNodeId: true,
  flow: { select: { name: true } },
} as const;

/**
 * Runs newest first with keyset pagination on the time-ordered id. Reads through the host's Prisma
 * client because the db package's run list has no time window yet (since/until on createdAt).
 */
export async function listRuns(
  host: Host,
  f: RunFilter,
): Promise<{ runs: RunRow[]; nextCursor: string | null }> {
  const rows = await host.db.prisma.run.findMany({
    where: {
      flowId: f.flowId,
      status: f.status,
      channel: f.channel,
      ...(f.since || f.until
        ? { createdAt: { ...(f.since ? { gte: f.since } : {}), ...(f.until ? { lt: f.until } : {}) } }
        : {}),
      ...(f.cursor ? { id: { lt: f.cursor } } : {}),
    },
    orderBy: { id: "desc" },
    take: f.limit + 1,
    select: summaryFields,
  });
  const page = rows.slice(0, f.limit);
  return { runs: page, nextCursor: rows.length > f.limit ? page[page.length - 1]!.id : null };
}

export function isTerminal(status: string): boolean {
  return (terminalStatuses as readonly string[]).includes(status);
}

/**
 * Resolves when the run reaches a terminal status, or after `timeoutMs` / when `signal` aborts. Listens
 * before it looks, so a run that finishes in between is not missed.
 */
export async function waitForTerminal(
  host: Host,
  runId: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  const events = host.services.events;
  let done!: (finished: boolean) => void;
  const finished = new Promise<boolean>((resolve) => {
    done = resolve;
  });
  // A run that parks (durable wait) also "finishes" its slice; only terminal statuses end the wait.
  const onFinished = (e: { runId: string; status: string }) => {
    if (e.runId === runId && isTerminal(e.status)) done(true);
  };
  const onAbort = () => done(false);
  const timer = setTimeout(() => done(false), timeoutMs);
  events.on("run.finished", onFinished);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const row = await host.db.prisma.run.findUnique({ where: { id: runId }, select: { status: true } });
    if (row && isTerminal(row.status)) return true;
    return await finished;
  } finally {
    clearTimeout(timer);
    events.off("run.finished", onFinished);
    signal.removeEventListener("abort", onAbort);
  }
}
