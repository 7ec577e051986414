import { HostError } from "../../errors/codes";
import type { Host } from "../../host";
import { isFinishedRunStatus } from "@switchyard/contracts/runs";
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

/**
 * Runs newest first with keyset pagination, through the same repository query as the runs page's
 * `run.list` (`since`/`until` are its `from`/`to` window on createdAt). A cursor that names no run
 * (pruned since, or mistyped) is the caller's mistake: 400 with the reason.
 */
export async function listRuns(
  host: Host,
  f: RunFilter,
): Promise<{ runs: RunRow[]; nextCursor: string | null }> {
  const page = await host.runs
    .list({
      flowId: f.flowId,
      status: f.status,
      channel: f.channel,
      from: f.since,
      to: f.until,
      limit: f.limit,
      cursor: f.cursor,
    })
    .catch((e: unknown) => {
      if (e instanceof RangeError) throw new HostError("invalid_request", e.message);
      throw e;
    });
  // The API's row shape predates `rerunOf` in the list: keep the documented fields only.
  return { runs: page.runs.map(({ rerunOf: _rerunOf, ...row }) => row), nextCursor: page.nextCursor };
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
    if (e.runId === runId && isFinishedRunStatus(e.status)) done(true);
  };
  const onAbort = () => done(false);
  const timer = setTimeout(() => done(false), timeoutMs);
  events.on("run.finished", onFinished);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const row = await host.db.prisma.run.findUnique({ where: { id: runId }, select: { status: true } });
    if (row && isFinishedRunStatus(row.status)) return true;
    return await finished;
  } finally {
    clearTimeout(timer);
    events.off("run.finished", onFinished);
    signal.removeEventListener("abort", onAbort);
  }
}
