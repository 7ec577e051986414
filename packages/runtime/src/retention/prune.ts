import type Database from "better-sqlite3";
import { finishedRunStatuses } from "@switchyard/contracts/runs";
import { runVolume, sqlDate } from "@switchyard/db";
import { effectiveRule, isEmptyRule, type RetentionPolicy } from "./policy";

const DAY_MS = 86_400_000;
/** Only finished runs are ever pruned: queued, running and waiting runs are someone's work in progress. */
const FINISHED = finishedRunStatuses;
const FAILED = ["failed", "timed_out"] as const;
const NOT_FAILED = FINISHED.filter((s) => !(FAILED as readonly string[]).includes(s));

export interface PruneOptions {
  now: number;
  /** Most runs per delete transaction; small batches keep each write lock short. */
  batchSize: number;
  /**
   * Batches shrink (down to 10 runs) while one takes longer than this, and grow back when quick:
   * runs with MiB-sized payloads must not hold the event loop and the write lock for long. Default 40 ms.
   */
  targetBatchMs?: number;
  /** Called between batches: yields the event loop so admissions and checkpoints get the lock. */
  pause?: () => Promise<void>;
  /** Stops between batches when it returns true (shutdown). */
  stopped?: () => boolean;
}

export interface PruneReport {
  deletedRuns: number;
  deletedSteps: number;
  batches: number;
  /** Longest single delete transaction, in ms: what a concurrent writer may have waited at worst. */
  longestBatchMs: number;
  byFlow: Record<string, number>;
  /** Attachment ids the deleted runs' payloads referenced: reclaimed unless another run still refers to them. */
  attachmentIds: string[];
  /** Of deletedRuns, those deleted (oldest first, any flow) because the database exceeded its storage budget. */
  overBudgetRuns: number;
}

const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ");
const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Deletes finished runs (and their steps) that the policy no longer keeps, in short batches. */
export async function pruneRuns(
  sql: Database.Database,
  policy: RetentionPolicy,
  o: PruneOptions,
): Promise<PruneReport> {
  const report: PruneReport = {
    deletedRuns: 0,
    deletedSteps: 0,
    batches: 0,
    longestBatchMs: 0,
    byFlow: {},
    attachmentIds: [],
    overBudgetRuns: 0,
  };
  const attachmentIds = new Set<string>();
  const pause = o.pause ?? yieldLoop;

  const olderThan = (statuses: readonly string[]) =>
    sql.prepare(
      `SELECT id FROM "Run" WHERE flowId = ? AND createdAt < ? AND status IN (${placeholders(statuses.length)}) LIMIT ?`,
    );
  const finishedOld = olderThan(FINISHED);
  const okOld = olderThan(NOT_FAILED);
  const failedOld = olderThan(FAILED);
  const beyondNewest = sql.prepare(
    `SELECT id FROM "Run" WHERE flowId = ? AND status IN (${placeholders(FINISHED.length)})
     ORDER BY createdAt DESC, id DESC LIMIT ? OFFSET ?`,
  );
  const oldestFinished = sql.prepare(
    `SELECT id FROM "Run" WHERE status IN (${placeholders(FINISHED.length)}) ORDER BY createdAt, id LIMIT ?`,
  );
  // E-mail payloads list their stored attachments at `$.attachments[*].id` (reruns copy the payload).
  const attachmentsOf = sql.prepare(
    `SELECT DISTINCT json_extract(j.value, '$.id') AS id FROM "Run" r, json_each(r.triggerPayload, '$.attachments') j
     WHERE r.id IN (SELECT value FROM json_each(?)) AND j.type = 'object' AND json_type(j.value, '$.id') = 'text'`,
  );
  const deleteSteps = sql.prepare(`DELETE FROM "Step" WHERE runId IN (SELECT value FROM json_each(?))`);
  const deleteRuns = sql.prepare(`DELETE FROM "Run" WHERE id IN (SELECT value FROM json_each(?))`);
  // Select and delete in one IMMEDIATE transaction, so the batch is exactly what the rule chose.
  const batch = sql.transaction((select: () => string[]) => {
    const ids = select();
    if (ids.length === 0) return { runs: 0, steps: 0 };
    const json = JSON.stringify(ids);
    for (const row of attachmentsOf.all(json) as { id: string }[]) attachmentIds.add(row.id);
    const steps = deleteSteps.run(json).changes;
    return { runs: deleteRuns.run(json).changes, steps };
  });

  const target = o.targetBatchMs ?? 40;
  let size = Math.min(o.batchSize, 50); // start small; grows while batches stay quick
  /** Deletes what `select` picks, batch by batch; `flowId` attributes the runs in `byFlow`. */
  const drain = async (flowId: string | undefined, select: (limit: number) => string[]) => {
    for (;;) {
      if (o.stopped?.()) return;
      const t0 = performance.now();
      const done = batch.immediate(() => select(size));
      const ms = performance.now() - t0;
      report.longestBatchMs = Math.max(report.longestBatchMs, ms);
      if (ms > target) size = Math.max(10, Math.floor(size / 2));
      else if (ms < target / 2) size = Math.min(o.batchSize, size * 2);
      if (done.runs === 0) return;
      report.batches++;
      report.deletedRuns += done.runs;
      report.deletedSteps += done.steps;
      if (flowId !== undefined) report.byFlow[flowId] = (report.byFlow[flowId] ?? 0) + done.runs;
      await pause();
    }
  };
  const ids = (rows: unknown[]) => (rows as { id: string }[]).map((r) => r.id);

  const flowIds = ids(sql.prepare(`SELECT id FROM "Flow" ORDER BY id`).all());
  for (const flowId of flowIds) {
    const rule = effectiveRule(policy, flowId);
    if (isEmptyRule(rule)) continue;
    const cutoff = (d: number) => sqlDate(o.now - d * DAY_MS);
    const failedDays = rule.keepFailedDays ?? rule.keepDays;
    if (rule.keepDays !== undefined && failedDays === rule.keepDays) {
      const at = cutoff(rule.keepDays);
      await drain(flowId, (n) => ids(finishedOld.all(flowId, at, ...FINISHED, n)));
    } else {
      if (rule.keepDays !== undefined) {
        const at = cutoff(rule.keepDays);
        await drain(flowId, (n) => ids(okOld.all(flowId, at, ...NOT_FAILED, n)));
      }
      if (failedDays !== undefined) {
        const at = cutoff(failedDays);
        await drain(flowId, (n) => ids(failedOld.all(flowId, at, ...FAILED, n)));
      }
    }
    const keep = rule.keepRuns;
    if (keep !== undefined) await drain(flowId, (n) => ids(beyondNewest.all(flowId, ...FINISHED, n, keep)));
  }
  if (policy.storageBudgetMb !== undefined) {
    const before = report.deletedRuns;
    // Deleting rows leaves pages part-filled, so the used size falls slower than the estimate: measure
    // again after each round (a few at most) rather than delete everything on one guess.
    for (let round = 0; round < 8 && !o.stopped?.(); round++) {
      let left = runsOverBudget(sql, policy.storageBudgetMb * 1024 * 1024);
      if (left === 0) break;
      const deletedBefore = report.deletedRuns;
      await drain(undefined, (n) => {
        if (left <= 0) return [];
        const got = ids(oldestFinished.all(...FINISHED, Math.min(n, left)));
        left -= got.length;
        return got;
      });
      if (report.deletedRuns === deletedBefore) break; // only live runs are left
    }
    report.overBudgetRuns = report.deletedRuns - before;
  }
  report.attachmentIds = [...attachmentIds];
  return report;
}

/**
 * How many runs to delete to bring the used pages under 90 % of the budget (the margin keeps the job
 * from deleting a handful on every run), estimated from the average size of a stored run.
 */
function runsOverBudget(sql: Database.Database, budgetBytes: number): number {
  const pageSize = sql.pragma("page_size", { simple: true }) as number;
  const used =
    ((sql.pragma("page_count", { simple: true }) as number) -
      (sql.pragma("freelist_count", { simple: true }) as number)) *
    pageSize;
  if (used <= budgetBytes) return 0;
  const { total } = runVolume(sql, Date.now());
  if (total === 0) return 0;
  return Math.ceil((used - budgetBytes * 0.9) / (used / total));
}
