import { newId } from "@switchyard/db";
import type { StepRecord } from "@switchyard/engine";
import type pg from "pg";
import { boundedJson } from "../runs/bounded-json";
import type { StepExtras } from "../runs/step-extras";

export interface AsyncStepStore {
  save(step: StepRecord): Promise<void>;
  load(runId: string): Promise<StepRecord[]>;
  /** Writes the run's buffered checkpoints on `c` (the transaction that finishes the run) or the pool. */
  flush(runId: string, c?: pg.PoolClient): Promise<void>;
  /**
   * Takes the run's buffered checkpoints as one INSERT whose parameters start at `$<offset + 1>`, to run in
   * the same statement as the run's outcome (one round trip); undefined when nothing is buffered.
   */
  takeInsert(runId: string, offset: number): { sql: string; params: unknown[] } | undefined;
  /** Drops the run's buffered checkpoints (a run that ended without being recorded). */
  drop(runId: string): void;
}

const columns = `id, "runId", "stepId", "nodeId", visit, attempt, status, port, reason, input, output, "errorCode",
  "errorMessage", "errorStack", truncated, "resumeAt", "retryAt", "startedAt", "endedAt", "durationMs", logs`;
const width = 21;

/**
 * The Step table on PostgreSQL, with the SQLite store's rule: impure steps are committed before the
 * executor moves on (so only the step in flight can run twice after a crash); pure ones are buffered and
 * ride along with the next durable write or the run's finishing transaction.
 */
export function createPgStepStore(pool: pg.Pool, extras?: StepExtras): AsyncStepStore {
  const buffered = new Map<string, unknown[][]>();
  const rowOf = (step: StepRecord): unknown[] => {
    const input = boundedJson(step.input);
    const output = boundedJson(step.outputs);
    const started = Date.parse(step.startedAt);
    const ended = Date.parse(step.endedAt);
    const extra = extras?.take(step.runId, step.nodeId);
    return [
      newId(),
      step.runId,
      step.stepId,
      step.nodeId,
      step.visit,
      step.attempt,
      step.status,
      step.port ?? null,
      step.reason ?? null,
      input.json,
      output.json,
      step.error?.code ?? null,
      step.error?.message ?? null,
      step.error?.stack ?? null,
      input.truncated || output.truncated,
      step.resumeAt ?? null,
      step.retryAt ?? null,
      new Date(started).toISOString(),
      new Date(ended).toISOString(),
      Math.max(0, ended - started),
      extra ? boundedJson(extra, 1024 * 1024).json : null,
    ];
  };
  const take = (runId: string) => {
    const rows = buffered.get(runId) ?? [];
    buffered.delete(runId);
    return rows;
  };
  const insertOf = (rows: unknown[][], offset = 0) => {
    const values = rows
      .map((_, r) => {
        const p = (i: number) => `$${offset + r * width + i + 1}`;
        const cells = Array.from({ length: width }, (_, i) =>
          i === 17 || i === 18 ? `(${p(i)}::timestamptz AT TIME ZONE 'UTC')` : p(i),
        );
        return `(${cells.join(", ")})`;
      })
      .join(", ");
    return { sql: `INSERT INTO "Step" (${columns}) VALUES ${values}`, params: rows.flat() };
  };
  const write = async (q: pg.Pool | pg.PoolClient, rows: unknown[][]) => {
    if (rows.length === 0) return;
    const { sql, params } = insertOf(rows);
    await q.query(sql, params);
  };
  return {
    async save(step) {
      const row = rowOf(step);
      if (step.pure) {
        const rows = buffered.get(step.runId);
        if (rows) rows.push(row);
        else buffered.set(step.runId, [row]);
        return;
      }
      const rows = take(step.runId);
      rows.push(row);
      try {
        await write(pool, rows);
      } catch (e) {
        // Not durable: put the pure rows back so a retry of the save (or the finish) still writes them.
        buffered.set(step.runId, rows.slice(0, -1));
        throw e;
      }
    },
    flush: (runId, c) => write(c ?? pool, take(runId)),
    takeInsert(runId, offset) {
      const rows = take(runId);
      return rows.length ? insertOf(rows, offset) : undefined;
    },
    drop: (runId) => void buffered.delete(runId),
    async load(runId) {
      await write(pool, take(runId));
      const { rows } = await pool.query(
        `SELECT "stepId", "nodeId", visit, attempt, status, port, reason, input, output, "errorCode", "errorMessage",
           "errorStack", "resumeAt", "retryAt",
           to_char("startedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "startedAt",
           to_char("endedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "endedAt"
         FROM "Step" WHERE "runId" = $1 ORDER BY id`,
        [runId],
      );
      return rows.map((r) => ({
        runId,
        stepId: r.stepId,
        nodeId: r.nodeId,
        visit: r.visit,
        attempt: r.attempt,
        status: r.status,
        ...(r.port ? { port: r.port } : {}),
        ...(r.reason ? { reason: r.reason } : {}),
        input: r.input ? JSON.parse(r.input) : [],
        outputs: r.output ? JSON.parse(r.output) : {},
        ...(r.errorCode
          ? {
              error: {
                code: r.errorCode,
                message: r.errorMessage ?? "",
                retryable: false,
                ...(r.errorStack ? { stack: r.errorStack } : {}),
              } as StepRecord["error"],
            }
          : {}),
        ...(r.resumeAt ? { resumeAt: r.resumeAt } : {}),
        ...(r.retryAt ? { retryAt: r.retryAt } : {}),
        startedAt: r.startedAt,
        endedAt: r.endedAt,
      })) as StepRecord[];
    },
  };
}
