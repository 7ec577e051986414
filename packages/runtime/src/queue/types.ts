import type { RunChannel, RunStatus } from "@switchyard/contracts/runs";

export type { RunStatus };

export interface NewRun {
  flowId: string;
  flowVersion: number;
  channel: RunChannel;
  /** Already-serialised payload: the hot path never parses and re-stringifies it. */
  payloadJson: string;
  rerunOf?: string;
  /** A step run (contracts' stepRunModes) and its node; only queued admissions carry one. */
  stepMode?: string;
  stepNode?: string;
  /** Optional pre-allocated id (lets a webhook answer with the id it will get). */
  id?: string;
  /** Dedupe window: a repeated key within `ttlMs` returns the first run instead of admitting a new one. */
  idempotency?: { key: string; ttlMs: number };
  /** Admit it already leased to this worker (it has a free slot): saves the claim round trip. */
  claimFor?: { workerId: string; leaseMs: number };
  /** A run that already ran to its end in memory: recorded finished, with its steps, in the admission commit. */
  completed?: CompletedRun;
}

export interface CompletedRun {
  outcome: RunOutcome;
  startedAt: number;
  endedAt: number;
  /** Writes the run's step rows; called inside the transaction, after the run row (and again if it is retried). */
  writeSteps(): void;
}

export interface Admission {
  id: string;
  /** True when the idempotency key was already seen: `id` is the earlier run. */
  duplicate: boolean;
  /** Set when admitted with `claimFor`: the run is this worker's to execute now. */
  claimed?: ClaimedRun;
}

export interface ClaimedRun {
  id: string;
  flowId: string;
  flowVersion: number;
  channel: RunChannel;
  payloadJson: string;
  attempts: number;
  createdAt: string;
  /** Admitted straight into this worker a moment ago: it has no checkpoints to resume from. */
  fresh?: boolean;
  /** Set for step runs (runs/step-runs.ts): the earlier run, the mode and the node. */
  rerunOf?: string | null;
  stepMode?: string | null;
  stepNode?: string | null;
  /** The parsed payload when the caller still holds it (saves parsing `payloadJson` again). */
  payload?: unknown;
}

export interface RunOutcome {
  status: Exclude<RunStatus, "queued" | "running">;
  error?: { code: string; message: string; nodeId?: string };
  outputJson?: string;
  /** For `waiting`: when the run becomes claimable again. */
  resumeAt?: Date;
}

export interface ClaimOptions {
  workerId: string;
  max: number;
  leaseMs: number;
  /** Limit of concurrently running runs per flow (FIFO within a flow). */
  perFlowLimit?: (flowId: string) => number;
  globalLimit?: number;
}

/**
 * The run queue seam. The embedded default is a leased job table in SQLite; a distributed implementation
 * (BullMQ/PostgreSQL) fits the same interface without touching the engine.
 */
export interface RunQueue {
  enqueue(run: NewRun): Promise<Admission>;
  claim(opts: ClaimOptions): ClaimedRun[];
  heartbeat(runId: string, workerId: string, leaseMs: number): boolean;
  finish(runId: string, workerId: string, outcome: RunOutcome): boolean;
  /** Returns expired leases to the queue; runs that crashed workers too often are failed instead. */
  reap(): { requeued: number; abandoned: number };
  /**
   * Called by the process that just took the data-dir lock: nobody else can be running these runs, so
   * every `running` row is an orphan of a crashed process and goes back to the queue at once.
   */
  recoverOrphans(): number;
  requestCancel(runId: string): "cancelled" | "signalled" | "not_found" | "already_finished";
  isCancelRequested(runId: string): boolean;
}
