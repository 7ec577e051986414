import type { StepRecord } from "./types";

/**
 * Durable checkpoints of a run. `save` is called for every finished (or parked) step and awaited before
 * the next step starts; a step may be saved again later (a retried attempt, a wait that ended), and
 * `load` must return the records in save order (the last record of a `stepId` wins).
 */
export interface StepStore {
  load(runId: string): Promise<StepRecord[]>;
  save(step: StepRecord): Promise<void>;
}

/** Keeps records in memory (tests, benchmarks). Records are stored by reference, not copied. */
export class InMemoryStepStore implements StepStore {
  private readonly runs = new Map<string, StepRecord[]>();

  async load(runId: string): Promise<StepRecord[]> {
    return [...(this.runs.get(runId) ?? [])];
  }

  async save(step: StepRecord): Promise<void> {
    let list = this.runs.get(step.runId);
    if (!list) {
      list = [];
      this.runs.set(step.runId, list);
    }
    list.push(step);
  }

  /** Everything saved for a run, in order (including superseded records). */
  all(runId: string): StepRecord[] {
    return [...(this.runs.get(runId) ?? [])];
  }
}
