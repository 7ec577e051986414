import type { ExpressionEvaluator, NodeContext, RunInfo } from "../contract";
import type { StepAbort } from "./step-abort";

/**
 * The per-step context the driver hands to the host's `ctxFactory`, as a class so `signal` is a getter on
 * the prototype. An object literal with a getter (`{ get signal() { … } }`) gives every step an accessor
 * of its own, holding a closure over the run; V8 then kept each run's whole state alive through minor GCs
 * and promoted it until a full GC found it dead (webhook p99 and throughput paid for the frequent
 * mark-compacts). `npx tsx bench/gc-promotion.ts`, W2 in the engine alone: 4.8 KB → 0.2 KB promoted per
 * run, twice the runs per second; see docs/benchmarks.md.
 */
export class StepContext {
  readonly #abort: StepAbort;

  constructor(
    readonly nodeId: string,
    readonly run: RunInfo,
    public log: NodeContext["log"],
    abort: StepAbort,
    readonly now: () => Date,
    readonly expressions: ExpressionEvaluator,
    readonly attempt: number,
  ) {
    this.#abort = abort;
  }

  /** Created on first read (see StepAbort). */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }
}
