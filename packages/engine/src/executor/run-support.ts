/** Small pieces of the driver: checkpoint indexing, the `nodes` expression scope, record and result building. */
import type { Item } from "../contract";
import type { Effect, RunResult, RunState, StepOutcome, StepRecord } from "./types";
import { stepIdOf } from "./types";

/** Latest record per step id (insertion order = first finish), and the ones a resumed run replays. */
export function checkpointIndex(records: StepRecord[]) {
  const latest = new Map<string, StepRecord>();
  for (const rec of records) latest.set(rec.stepId, rec);
  return { latest, pending: new Map(latest) };
}

type NodesEntry = { items: Record<string, unknown>[]; item: Record<string, unknown> | undefined };

/**
 * `nodes.<id>.items` / `nodes.<id>.item` for expressions, kept up to date as steps finish. `value` is a
 * snapshot that never changes once handed out (the evaluator remembers scope objects it has checked);
 * it is copied only when an expression asks for it after a step finished.
 */
export class NodesScope {
  private readonly live: Record<string, NodesEntry> = {};
  private snapshot: Record<string, NodesEntry> | undefined;

  get value(): Record<string, NodesEntry> {
    this.snapshot ??= { ...this.live };
    return this.snapshot;
  }

  update(rec: StepRecord): void {
    if (rec.status === "skipped" && rec.reason !== "disabled") return;
    if (rec.status === "failed" && rec.retryAt) return;
    const items: Record<string, unknown>[] = [];
    for (const port in rec.outputs) for (const it of rec.outputs[port]!) items.push(it.json);
    this.live[rec.nodeId] = { items, item: items[0] };
    this.snapshot = undefined;
  }
}

export function recordFrom(
  step: StepOutcome,
  runId: string,
  startedAt: Map<string, string>,
  now: Date,
): StepRecord {
  const stepId = stepIdOf(step.nodeId, step.visit);
  const endedAt = now.toISOString();
  // Fields listed one by one: spreading the outcome object was the single largest cost per step.
  const rec: StepRecord = {
    nodeId: step.nodeId,
    visit: step.visit,
    attempt: step.attempt,
    status: step.status,
    input: step.input,
    outputs: step.outputs,
    runId,
    stepId,
    startedAt: startedAt.get(stepId) ?? endedAt,
    endedAt,
  };
  if (step.error !== undefined) rec.error = step.error;
  if (step.reason !== undefined) rec.reason = step.reason;
  if (step.resumeAt !== undefined) rec.resumeAt = step.resumeAt;
  if (step.retryAt !== undefined) rec.retryAt = step.retryAt;
  for (const port in step.outputs) {
    if ((step.outputs[port]?.length ?? 0) > 0) {
      rec.port = port;
      break;
    }
  }
  return rec;
}

export function resultOf(
  runId: string,
  final: Extract<Effect, { type: "finish" }>,
  state: RunState,
  persisted: Map<string, StepRecord>,
): RunResult {
  const output: Item[] = [];
  const outputs = state.outputNode ? state.nodes[state.outputNode]?.outputs : undefined;
  for (const port in outputs ?? {}) for (const it of outputs![port]!) output.push(it);
  const result: RunResult = { runId, status: final.status, steps: [...persisted.values()], output };
  if (final.error) result.error = final.error;
  if (final.resumeAt) result.resumeAt = final.resumeAt;
  return result;
}
