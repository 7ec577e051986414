import { hostname } from "node:os";
import { DelayedError, type Job, Worker as BullWorker } from "bullmq";
import type { Logger } from "../logger";
import type { ClaimedRun, RunOutcome } from "../queue/types";
import type { RunExecutor, Worker } from "../worker/worker";
import type { RunBus } from "./bus";
import type { PgRuns } from "./pg-runs";
import type { AsyncStepStore } from "./pg-step-store";
import { bullConnection, RUN_QUEUE_NAME } from "./run-jobs";

export interface QueueWorkerOptions {
  runs: PgRuns;
  steps: AsyncStepStore;
  bus: RunBus;
  redisUrl: string;
  prefix: string;
  execute: RunExecutor;
  log: Logger;
  concurrency: number;
  /**
   * How long a dead worker keeps its runs: both BullMQ's job lock and the run's lease in PostgreSQL.
   * After it, BullMQ's stalled-job check hands the job to another worker, which resumes from checkpoints.
   */
  lockMs?: number;
  onFinished(runId: string, outcome: RunOutcome, run: ClaimedRun): void;
}

/**
 * The worker role: BullMQ hands this process run ids (at most `concurrency` at once); the run row in
 * PostgreSQL decides whether it may run (a stale or duplicate job finds it finished and does nothing).
 * A crashed worker's jobs come back through BullMQ's stalled-job check and resume from the last checkpoint.
 */
export function createQueueWorker(o: QueueWorkerOptions): Worker {
  const workerId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const lockMs = o.lockMs ?? 30_000;
  const inFlight = new Map<string, AbortController>();
  let bull: BullWorker | undefined;
  let beat: NodeJS.Timeout | undefined;

  o.bus.on("run.cancel", ({ runId }) => inFlight.get(runId)?.abort(new Error("cancelled")));

  // One timer renews every lease this worker holds, and notices cancellations and lost leases.
  const heartbeat = async () => {
    const ids = [...inFlight.keys()];
    if (ids.length === 0) return;
    try {
      const [held, cancelled] = await Promise.all([
        o.runs.heartbeat(ids, workerId, lockMs),
        o.bus.cancelled(ids),
      ]);
      for (const id of ids) {
        const ac = inFlight.get(id);
        if (cancelled.has(id)) ac?.abort(new Error("cancelled"));
        else if (!held.has(id)) {
          o.log.warn({ runId: id }, "lost the lease of a run; aborting it here");
          ac?.abort(new Error("lease lost"));
        }
      }
    } catch (err) {
      o.log.error({ err }, "renewing run leases failed; will retry");
    }
  };

  const processJob = async (job: Job, token?: string) => {
    const runId = (job.data as { runId: string }).runId;
    const run = await o.runs.take(runId, workerId, lockMs);
    if (run === undefined) return; // finished or cancelled: a stale job
    if (run === "not_due") {
      // Offered early (the reconciler): wait in BullMQ until the run's time.
      await job.moveToDelayed(Date.now() + 1000, token);
      throw new DelayedError();
    }
    if (run.attempts > o.runs.MAX_CLAIMS) {
      if (await o.runs.abandon(run.id, workerId, run.attempts)) {
        const outcome: RunOutcome = { status: "failed", error: { code: "worker_lost", message: "gave up" } };
        o.onFinished(run.id, outcome, run);
      }
      return;
    }
    if (run.attempts > 1) await o.runs.failOrphanedChildren(run.id);
    const ac = new AbortController();
    inFlight.set(run.id, ac);
    let outcome: RunOutcome;
    try {
      outcome = await o.execute(run, ac.signal);
    } catch (err) {
      o.log.error({ err, runId: run.id }, "run executor crashed");
      outcome = {
        status: "failed",
        error: { code: "internal", message: err instanceof Error ? err.message : String(err) },
      };
    } finally {
      inFlight.delete(run.id);
    }
    let recorded: boolean;
    try {
      recorded =
        outcome.status === "waiting"
          ? await o.runs.finish(run.id, workerId, outcome, (c) => o.steps.flush(run.id, c))
          : await o.runs.finishWithSteps(run.id, workerId, outcome, (offset) =>
              o.steps.takeInsert(run.id, offset),
            );
    } catch (err) {
      // The lease stays: the job fails, the reconciler offers it again and it resumes from its checkpoints.
      o.steps.drop(run.id);
      throw err;
    }
    if (!recorded) return;
    o.onFinished(run.id, outcome, run);
    if (outcome.status === "waiting" && outcome.resumeAt) {
      // A durable wait or a retry's back-off: BullMQ holds the job until then.
      await job.moveToDelayed(outcome.resumeAt.getTime(), token);
      throw new DelayedError();
    }
  };

  return {
    workerId,
    leaseMs: lockMs,
    start() {
      bull = new BullWorker(RUN_QUEUE_NAME, processJob, {
        connection: bullConnection(o.redisUrl),
        prefix: o.prefix,
        concurrency: o.concurrency,
        lockDuration: lockMs,
        stalledInterval: Math.max(1000, Math.floor(lockMs / 2)),
        // Each stall is one more claim; the run row's attempt count ends a poison run (MAX_CLAIMS).
        maxStalledCount: o.runs.MAX_CLAIMS + 1,
      });
      bull.on("error", (err) => o.log.error({ err }, "run queue worker error"));
      bull.on("failed", (job, err) =>
        o.log.warn({ runId: job?.data?.runId, err }, "run job failed; the reconciler offers it again"),
      );
      beat = setInterval(() => void heartbeat(), Math.max(200, Math.floor(lockMs / 3)));
    },
    kick: () => {},
    noteQueued: () => {},
    // The inline fast path belongs to the single-process mode: here every run goes through the queue.
    tryReserve: () => false,
    acceptsInline: () => false,
    runReserved: () => {
      throw new Error("runs are not admitted straight into a queue worker");
    },
    releaseReserved: () => {},
    abort(runId: string, reason = "cancelled") {
      const ac = inFlight.get(runId);
      ac?.abort(new Error(reason));
      return Boolean(ac);
    },
    inFlight: () => inFlight.size,
    async stop() {
      if (beat) clearInterval(beat);
      // close() waits for the jobs in progress; their outcomes are recorded before it returns.
      await bull?.close();
    },
  };
}

/** The web role's stand-in: it executes nothing, so every admission goes through the queue. */
export function createNoWorker(): Worker {
  return {
    workerId: "web",
    leaseMs: 0,
    start: () => {},
    kick: () => {},
    noteQueued: () => {},
    tryReserve: () => false,
    acceptsInline: () => false,
    runReserved: () => {
      throw new Error("the web role executes no runs");
    },
    releaseReserved: () => {},
    abort: () => false,
    inFlight: () => 0,
    stop: async () => {},
  };
}
