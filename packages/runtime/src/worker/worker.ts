import { hostname } from "node:os";
import type { Logger } from "../logger";
import type { ClaimedRun, RunOutcome, RunQueue } from "../queue/types";

export type RunExecutor = (run: ClaimedRun, signal: AbortSignal) => Promise<RunOutcome>;

export interface WorkerOptions {
  queue: RunQueue;
  execute: RunExecutor;
  log: Logger;
  concurrency?: number;
  leaseMs?: number;
  pollMs?: number;
  perFlowLimit?: (flowId: string) => number;
  onFinished?: (runId: string, outcome: RunOutcome) => void;
  /** Wraps the finishing write, so buffered checkpoints commit in the same transaction as the outcome. */
  finishTx?: (runId: string, finish: () => boolean) => boolean;
}

/**
 * Claims runs, executes them under a heartbeated lease and records the outcome. A run whose lease
 * can't be renewed (another worker reaped it) is aborted here, so it never runs twice to completion.
 */
export function createWorker(o: WorkerOptions) {
  const workerId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const concurrency = o.concurrency ?? 8;
  const leaseMs = o.leaseMs ?? 30_000;
  const pollMs = o.pollMs ?? 250;
  const inFlight = new Map<string, AbortController>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let pumping = false;
  let idle: (() => void) | undefined;

  const runOne = async (run: ClaimedRun) => {
    const ac = new AbortController();
    inFlight.set(run.id, ac);
    const beat = setInterval(() => {
      if (!o.queue.heartbeat(run.id, workerId, leaseMs)) {
        o.log.warn({ runId: run.id }, "lost the lease of a run; aborting it here");
        ac.abort(new Error("lease lost"));
      }
      if (o.queue.isCancelRequested(run.id)) ac.abort(new Error("cancelled"));
    }, Math.max(50, Math.floor(leaseMs / 3)));
    let outcome: RunOutcome;
    try {
      outcome = await o.execute(run, ac.signal);
    } catch (err) {
      o.log.error({ err, runId: run.id }, "run executor crashed");
      outcome = { status: "failed", error: { code: "internal", message: err instanceof Error ? err.message : String(err) } };
    } finally {
      clearInterval(beat);
      inFlight.delete(run.id);
    }
    const finish = () => o.queue.finish(run.id, workerId, outcome);
    let finished = false;
    try {
      finished = o.finishTx ? o.finishTx(run.id, finish) : finish();
    } catch (err) {
      // The lease stays; the reaper hands the run to a worker again and it resumes from its checkpoints.
      o.log.error({ err, runId: run.id }, "recording a run's outcome failed");
    }
    if (finished) o.onFinished?.(run.id, outcome);
    if (running) void pump();
    else if (inFlight.size === 0) idle?.();
  };

  const pump = async () => {
    if (!running || pumping) return;
    pumping = true;
    try {
      const room = concurrency - inFlight.size;
      if (room > 0) {
        const runs = o.queue.claim({ workerId, max: room, leaseMs, perFlowLimit: o.perFlowLimit });
        for (const run of runs) void runOne(run);
      }
    } catch (err) {
      o.log.error({ err }, "claiming runs failed; will retry");
    } finally {
      pumping = false;
    }
  };

  return {
    workerId,
    start() {
      running = true;
      const tick = () => {
        try {
          o.queue.reap();
        } catch (err) {
          o.log.error({ err }, "reaping expired leases failed");
        }
        void pump();
      };
      tick();
      timer = setInterval(tick, pollMs);
    },
    /** Wakes the worker right after an admission instead of waiting for the next poll. */
    kick: () => void pump(),
    abort(runId: string, reason = "cancelled"): boolean {
      const ac = inFlight.get(runId);
      ac?.abort(new Error(reason));
      return Boolean(ac);
    },
    inFlight: () => inFlight.size,
    /** Stops claiming; waits for in-flight runs (their leases expire and get reaped if we are killed). */
    async stop(): Promise<void> {
      running = false;
      if (timer) clearInterval(timer);
      if (inFlight.size === 0) return;
      await new Promise<void>((resolve) => {
        idle = resolve;
      });
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;
