import { hostname } from "node:os";
import { TransientMap } from "@switchyard/engine";
import type { Logger } from "../logger";
import type { ClaimedRun, RunOutcome, RunQueue } from "../queue/types";

export type RunExecutor = (run: ClaimedRun, signal: AbortSignal) => Promise<RunOutcome>;

export interface FinishRequest {
  runId: string;
  outcome: RunOutcome;
  run: ClaimedRun;
}

export interface WorkerOptions {
  queue: RunQueue;
  execute: RunExecutor;
  log: Logger;
  concurrency?: number;
  leaseMs?: number;
  pollMs?: number;
  perFlowLimit?: (flowId: string) => number;
  onFinished?: (runId: string, outcome: RunOutcome, run: ClaimedRun) => void;
  /**
   * Records outcomes that finished in the same tick in one transaction (with their buffered
   * checkpoints); returns, per request, whether this worker still held the lease.
   */
  finishMany?: (workerId: string, batch: FinishRequest[]) => boolean[];
}

/**
 * Claims runs, executes them under a heartbeated lease and records the outcome. A run whose lease
 * can't be renewed (another worker reaped it) is aborted here, so it never runs twice to completion.
 */
export function createWorker(o: WorkerOptions) {
  const workerId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  // Runs mostly wait on I/O; 32 in flight keeps a 2-core box busy without queueing webhook bursts.
  const concurrency = o.concurrency ?? 32;
  const leaseMs = o.leaseMs ?? 30_000;
  const pollMs = o.pollMs ?? 250;
  // One entry per running run; see TransientMap for why not a Map.
  const inFlight = new TransientMap<AbortController>();
  let reserved = 0;
  // Runs this process admitted to the queue and not yet claimed: while any wait, new runs queue behind them.
  let backlog = 0;
  let timer: NodeJS.Timeout | undefined;
  let beatTimer: NodeJS.Timeout | undefined;
  let running = false;
  let pumping = false;
  let idle: (() => void) | undefined;
  let finishing: FinishRequest[] = [];

  const finishMany =
    o.finishMany ?? ((wid, batch) => batch.map((f) => o.queue.finish(f.runId, wid, f.outcome)));
  const flushFinishes = () => {
    const batch = finishing;
    finishing = [];
    let results: boolean[];
    try {
      results = finishMany(workerId, batch);
    } catch (err) {
      // Leases stay; the reaper hands these runs out again and they resume from their checkpoints.
      o.log.error({ err, runs: batch.length }, "recording run outcomes failed");
      results = batch.map(() => false);
    }
    batch.forEach((f, i) => {
      if (results[i]) o.onFinished?.(f.runId, f.outcome, f.run);
    });
    if (running) void pump();
    else if (inFlight.size === 0) idle?.();
  };

  const runOne = async (run: ClaimedRun) => {
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
    finishing.push({ runId: run.id, outcome, run });
    // Outcomes of runs ending in the same tick share one commit.
    if (finishing.length === 1) setImmediate(flushFinishes);
  };

  // One timer renews every lease this worker holds (and notices cancellations and lost leases).
  const heartbeat = () => {
    for (const [runId, ac] of inFlight.entries()) {
      if (o.queue.isCancelRequested(runId)) ac.abort(new Error("cancelled"));
      else if (!o.queue.heartbeat(runId, workerId, leaseMs)) {
        o.log.warn({ runId }, "lost the lease of a run; aborting it here");
        ac.abort(new Error("lease lost"));
      }
    }
  };

  const pump = async () => {
    if (!running || pumping) return;
    pumping = true;
    try {
      const room = concurrency - inFlight.size - reserved;
      if (room > 0) {
        const runs = o.queue.claim({ workerId, max: room, leaseMs, perFlowLimit: o.perFlowLimit });
        backlog = runs.length < room ? 0 : Math.max(0, backlog - runs.length);
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
    leaseMs,
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
      beatTimer = setInterval(heartbeat, Math.max(50, Math.floor(leaseMs / 3)));
    },
    /** Wakes the worker right after an admission instead of waiting for the next poll. */
    kick: () => void pump(),
    /** This process queued a run (no free slot): later admissions wait behind it. */
    noteQueued() {
      backlog++;
    },
    /**
     * Takes a slot for a run admitted straight into this worker (skipping the claim); false when full or
     * when queued runs are waiting (they go first: FIFO, and no starved tail latency).
     */
    tryReserve(): boolean {
      if (!running || backlog > 0 || inFlight.size + reserved >= concurrency) return false;
      reserved++;
      return true;
    },
    /** Whether a request may run a pure flow inline now: not while stopping or while runs queued here wait. */
    acceptsInline: () => running && backlog === 0,
    /** Runs a run that was admitted already leased to this worker, in the slot reserved for it. */
    runReserved(run: ClaimedRun) {
      reserved--;
      void runOne(run);
    },
    releaseReserved() {
      reserved--;
    },
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
      if (beatTimer) clearInterval(beatTimer);
      if (inFlight.size === 0 && finishing.length === 0) return;
      await new Promise<void>((resolve) => {
        idle = resolve;
      });
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;
