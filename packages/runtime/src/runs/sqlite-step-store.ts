import type Database from "better-sqlite3";
import { newId, sqlDate } from "@switchyard/db";
import { type StepRecord, type StepStore, TransientMap } from "@switchyard/engine";
import { boundedJson } from "./bounded-json";
import type { StepExtras } from "./step-extras";

interface StepRow {
  stepId: string;
  nodeId: string;
  visit: number;
  attempt: number;
  status: StepRecord["status"];
  port: string | null;
  reason: string | null;
  input: string | null;
  output: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  errorStack: string | null;
  resumeAt: string | null;
  retryAt: string | null;
  startedAt: string;
  endedAt: string;
  truncated: number;
}

export interface BatchingStepStore extends StepStore {
  /** Writes the run's buffered checkpoints; call inside the transaction that finishes the run. */
  flushSync(runId: string): void;
  /** Hands over the run's buffered checkpoints as a writer that can run (and, after a rollback, rerun) in a transaction. */
  takeBuffered(runId: string): () => void;
}

/**
 * Step checkpoints in the Step table. Every save appends a row (retried attempts stay in the trace);
 * rows come back in save order because ids are time-ordered.
 *
 * A step with effects outside the run is committed before the executor moves on (with any buffered rows
 * before it), so it never runs twice except when it was in flight. Pure steps (`pure`) are buffered and
 * ride along with the next durable write or the run's finishing transaction: after a crash they simply
 * run again, which changes nothing outside the run. This turns a 3-step webhook run from 3 commits into 0.
 */
export function createSqliteStepStore(db: Database.Database, extras?: StepExtras): BatchingStepStore {
  const insert = db.prepare(
    `INSERT INTO "Step" (id, runId, stepId, nodeId, visit, attempt, status, port, reason, input, output, errorCode, errorMessage,
       errorStack, truncated, resumeAt, retryAt, startedAt, endedAt, durationMs)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertLogs = db.prepare(
    `INSERT INTO "Step" (id, runId, stepId, nodeId, visit, attempt, status, port, reason, input, output, errorCode, errorMessage,
       errorStack, truncated, resumeAt, retryAt, startedAt, endedAt, durationMs, logs)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const select = db.prepare(
    `SELECT stepId, nodeId, visit, attempt, status, port, reason, input, output, errorCode, errorMessage, errorStack,
       resumeAt, retryAt, startedAt, endedAt, truncated
     FROM "Step" WHERE runId = ? ORDER BY id`,
  );
  // Rows wait here for their run's commit; see TransientMap for why not a Map.
  const buffered = new TransientMap<unknown[][]>();
  const write = (row: unknown[]) => (row.length === 21 ? insertLogs : insert).run(...row);
  const writeMany = db.transaction((rows: unknown[][]) => {
    for (const row of rows) write(row);
  });
  const rowOf = (step: StepRecord): unknown[] => {
    const input = boundedJson(step.input);
    const output = boundedJson(step.outputs);
    const started = Date.parse(step.startedAt);
    const ended = Date.parse(step.endedAt);
    const extra = extras?.take(step.runId, step.nodeId);
    const logs = extra ? boundedJson(extra, 1024 * 1024) : undefined;
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
      input.truncated || output.truncated ? 1 : 0,
      step.resumeAt ?? null,
      step.retryAt ?? null,
      sqlDate(started),
      sqlDate(ended),
      Math.max(0, ended - started),
      ...(logs ? [logs.json] : []),
    ];
  };
  const take = (runId: string) => {
    const rows = buffered.get(runId) ?? [];
    buffered.delete(runId);
    return rows;
  };
  const flushSync = (runId: string, extra?: unknown[]) => {
    const rows = take(runId);
    if (extra) rows.push(extra);
    if (rows.length === 1) write(rows[0]!);
    else if (rows.length > 1) writeMany(rows);
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
      flushSync(step.runId, row);
    },
    flushSync: (runId) => flushSync(runId),
    takeBuffered(runId) {
      const rows = take(runId);
      return () => {
        for (const row of rows) write(row);
      };
    },
    async load(runId) {
      flushSync(runId);
      return (select.all(runId) as StepRow[]).map((r) => ({
        runId,
        stepId: r.stepId,
        nodeId: r.nodeId,
        visit: r.visit,
        attempt: r.attempt,
        status: r.status,
        ...(r.port ? { port: r.port } : {}),
        ...(r.reason ? { reason: r.reason as StepRecord["reason"] } : {}),
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
        startedAt: new Date(r.startedAt).toISOString(),
        endedAt: new Date(r.endedAt).toISOString(),
      }));
    },
  };
}
