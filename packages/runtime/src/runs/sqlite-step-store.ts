import type Database from "better-sqlite3";
import { newId, sqlDate } from "@switchyard/db";
import type { StepRecord, StepStore } from "@switchyard/engine";
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

/**
 * Step checkpoints in the Step table. Every save appends a row (retried attempts stay in the trace);
 * rows come back in save order because ids are time-ordered. Each save is its own commit: the executor
 * awaits it before the next step starts, which is what makes crash-resume exact.
 */
export function createSqliteStepStore(db: Database.Database, extras?: StepExtras): StepStore {
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
  return {
    async save(step) {
      const input = boundedJson(step.input);
      const output = boundedJson(step.outputs);
      const started = Date.parse(step.startedAt);
      const ended = Date.parse(step.endedAt);
      const extra = extras?.take(step.runId, step.nodeId);
      const logs = extra ? boundedJson(extra, 1024 * 1024) : undefined;
      (logs ? insertLogs : insert).run(
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
      );
    },
    async load(runId) {
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
          ? { error: { code: r.errorCode, message: r.errorMessage ?? "", retryable: false, ...(r.errorStack ? { stack: r.errorStack } : {}) } as StepRecord["error"] }
          : {}),
        ...(r.resumeAt ? { resumeAt: r.resumeAt } : {}),
        ...(r.retryAt ? { retryAt: r.retryAt } : {}),
        startedAt: new Date(r.startedAt).toISOString(),
        endedAt: new Date(r.endedAt).toISOString(),
      }));
    },
  };
}
