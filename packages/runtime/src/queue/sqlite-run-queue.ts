import type Database from "better-sqlite3";
import { isFinishedRunStatus } from "@switchyard/contracts/runs";
import { newId, sqlDate } from "@switchyard/db";
import type { Admission, ClaimedRun, ClaimOptions, NewRun, RunQueue } from "./types";

/** After this many lease expiries a run is failed rather than retried: a poison run must not loop forever. */
export const MAX_CLAIMS = 5;

interface Pending {
  run: NewRun & { id: string };
  resolve: (a: Admission) => void;
  reject: (e: unknown) => void;
}

/**
 * Leased job table on the Run rows themselves. Admissions that arrive in the same tick are
 * group-committed in one transaction; each caller's promise resolves only after COMMIT, so an
 * acknowledged request always has its run row.
 */
export function createSqliteRunQueue(db: Database.Database, opts: { now?: () => number } = {}): RunQueue {
  const now = opts.now ?? Date.now;
  const cancelRequested = new Set<string>();
  let pending: Pending[] = [];
  let scheduled = false;

  const insert = db.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, rerunOf, createdAt,
       stepMode, stepNode)
     VALUES (?, ?, ?, 'queued', ?, ?, ?, 0, ?, ?, ?, ?)`,
  );
  const insertClaimed = db.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, rerunOf, createdAt,
       leaseOwner, leaseExpiresAt, startedAt)
     VALUES (?, ?, ?, 'running', ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
  );
  const insertCompleted = db.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, rerunOf, createdAt,
       startedAt, endedAt, durationMs, output, errorCode, errorMessage, errorNodeId)
     VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const findKey = db.prepare(`SELECT runId FROM "IdempotencyKey" WHERE key = ? AND expiresAt > ?`);
  const putKey = db.prepare(
    `INSERT OR REPLACE INTO "IdempotencyKey" (key, runId, expiresAt) VALUES (?, ?, ?)`,
  );
  const insertMany = db.transaction((batch: Pending[]): Admission[] => {
    const t = now();
    const at = sqlDate(t);
    return batch.map((p) => {
      const idem = p.run.idempotency;
      if (idem) {
        const seen = findKey.get(idem.key, at) as { runId: string } | undefined;
        if (seen) return { id: seen.runId, duplicate: true };
        putKey.run(idem.key, p.run.id, sqlDate(t + idem.ttlMs));
      }
      const r = p.run;
      if (r.completed) {
        const { outcome, startedAt, endedAt } = r.completed;
        const started = sqlDate(startedAt);
        insertCompleted.run(
          r.id,
          r.flowId,
          r.flowVersion,
          outcome.status,
          r.channel,
          r.payloadJson,
          started,
          r.rerunOf ?? null,
          started,
          started,
          sqlDate(endedAt),
          Math.max(0, endedAt - startedAt),
          outcome.outputJson ?? null,
          outcome.error?.code ?? null,
          outcome.error?.message ?? null,
          outcome.error?.nodeId ?? null,
        );
        r.completed.writeSteps();
        return { id: r.id, duplicate: false };
      }
      if (r.claimFor) {
        insertClaimed.run(
          r.id,
          r.flowId,
          r.flowVersion,
          r.channel,
          r.payloadJson,
          at,
          r.rerunOf ?? null,
          at,
          r.claimFor.workerId,
          sqlDate(t + r.claimFor.leaseMs),
          at,
        );
        const claimed = {
          id: r.id,
          flowId: r.flowId,
          flowVersion: r.flowVersion,
          channel: r.channel,
          payloadJson: r.payloadJson,
          attempts: 1,
          createdAt: at,
          fresh: true,
        };
        return { id: r.id, duplicate: false, claimed };
      }
      insert.run(
        r.id,
        r.flowId,
        r.flowVersion,
        r.channel,
        r.payloadJson,
        at,
        r.rerunOf ?? null,
        at,
        r.stepMode ?? null,
        r.stepNode ?? null,
      );
      return { id: r.id, duplicate: false };
    });
  });
  const flush = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    try {
      const results = insertMany(batch);
      for (const [i, p] of batch.entries()) p.resolve(results[i]!);
    } catch {
      // One bad row must not fail its neighbours: retry them one by one.
      for (const p of batch) {
        try {
          p.resolve(insertMany([p])[0]!);
        } catch (err) {
          p.reject(err);
        }
      }
    }
  };

  const candidates = db.prepare(
    `SELECT id, flowId FROM "Run" WHERE status IN ('queued', 'waiting') AND availableAt <= ? ORDER BY availableAt, id LIMIT ?`,
  );
  const runningByFlow = db.prepare(
    `SELECT flowId, COUNT(*) AS n FROM "Run" WHERE status = 'running' GROUP BY flowId`,
  );
  const take = db.prepare(
    `UPDATE "Run" SET status = 'running', leaseOwner = ?, leaseExpiresAt = ?, attempts = attempts + 1,
       startedAt = COALESCE(startedAt, ?)
     WHERE id = ? AND status IN ('queued', 'waiting')
     RETURNING id, flowId, flowVersion, channel, triggerPayload AS payloadJson, attempts, createdAt, rerunOf, stepMode, stepNode`,
  );
  const claimTx = db.transaction((o: ClaimOptions): ClaimedRun[] => {
    const t = now();
    const running = new Map<string, number>();
    let total = 0;
    for (const r of runningByFlow.all() as { flowId: string; n: number }[]) {
      running.set(r.flowId, r.n);
      total += r.n;
    }
    const room = Math.min(o.max, o.globalLimit === undefined ? o.max : o.globalLimit - total);
    if (room <= 0) return [];
    const out: ClaimedRun[] = [];
    const blocked = new Set<string>();
    for (const c of candidates.all(sqlDate(t), room * 4 + 16) as { id: string; flowId: string }[]) {
      if (out.length >= room) break;
      // FIFO within a flow: once a flow's oldest queued run can't start, none of its newer ones may.
      if (blocked.has(c.flowId)) continue;
      const limit = o.perFlowLimit?.(c.flowId) ?? Number.POSITIVE_INFINITY;
      const n = running.get(c.flowId) ?? 0;
      if (n >= limit) {
        blocked.add(c.flowId);
        continue;
      }
      const row = take.get(o.workerId, sqlDate(t + o.leaseMs), sqlDate(t), c.id) as ClaimedRun | undefined;
      if (row) {
        out.push(row);
        running.set(c.flowId, n + 1);
      }
    }
    return out;
  });

  const beat = db.prepare(
    `UPDATE "Run" SET leaseExpiresAt = ? WHERE id = ? AND leaseOwner = ? AND status = 'running'`,
  );
  const finishStmt = db.prepare(
    `UPDATE "Run" SET status = ?, leaseOwner = NULL, leaseExpiresAt = NULL, errorCode = ?, errorMessage = ?, errorNodeId = ?,
       output = ?, endedAt = ?, durationMs = CAST((julianday(?) - julianday(startedAt)) * 86400000 AS INTEGER),
       availableAt = COALESCE(?, availableAt)
     WHERE id = ? AND leaseOwner = ? AND status = 'running'`,
  );
  const requeueWaiting = db.prepare(
    `UPDATE "Run" SET status = 'waiting', leaseOwner = NULL, leaseExpiresAt = NULL, availableAt = ?, attempts = 0
     WHERE id = ? AND leaseOwner = ? AND status = 'running'`,
  );
  const reapAbandon = db.prepare(
    `UPDATE "Run" SET status = 'failed', leaseOwner = NULL, leaseExpiresAt = NULL, errorCode = 'worker_lost',
       errorMessage = 'the worker running this run stopped ' || attempts || ' times; giving up', endedAt = ?
     WHERE status = 'running' AND leaseExpiresAt < ? AND attempts >= ?`,
  );
  const reapRequeue = db.prepare(
    `UPDATE "Run" SET status = 'queued', leaseOwner = NULL, leaseExpiresAt = NULL
     WHERE status = 'running' AND leaseExpiresAt < ?`,
  );
  const reapTx = db.transaction(() => {
    const t = sqlDate(now());
    const abandoned = reapAbandon.run(t, t, MAX_CLAIMS).changes;
    const requeued = reapRequeue.run(t).changes;
    return { requeued, abandoned };
  });
  // Child runs of flow.call ran inside their parent: the parent resumes and calls again, so they end here.
  const subflowOrphans = db.prepare(
    `UPDATE "Run" SET status = 'failed', leaseOwner = NULL, leaseExpiresAt = NULL, errorCode = 'worker_lost',
       errorMessage = 'the process running the calling flow stopped; the caller calls again when it resumes'
     WHERE status = 'running' AND leaseOwner LIKE 'subflow:%'`,
  );
  const orphans = db.prepare(
    `UPDATE "Run" SET status = 'queued', leaseOwner = NULL, leaseExpiresAt = NULL WHERE status = 'running'`,
  );
  const statusOf = db.prepare(`SELECT status FROM "Run" WHERE id = ?`);
  const cancelQueued = db.prepare(
    `UPDATE "Run" SET status = 'cancelled', endedAt = ?, errorCode = 'cancelled', errorMessage = 'cancelled before it started'
     WHERE id = ? AND status IN ('queued', 'waiting')`,
  );

  return {
    enqueue(run) {
      const id = run.id ?? newId();
      return new Promise<Admission>((resolve, reject) => {
        pending.push({ run: { ...run, id }, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    claim: (o) => claimTx.immediate(o),
    heartbeat: (runId, workerId, leaseMs) =>
      beat.run(sqlDate(now() + leaseMs), runId, workerId).changes === 1,
    finish(runId, workerId, outcome) {
      cancelRequested.delete(runId);
      if (outcome.status === "waiting" && outcome.resumeAt) {
        // A durable wait is a row with a future availableAt: it survives restarts like any queued run.
        return requeueWaiting.run(sqlDate(outcome.resumeAt), runId, workerId).changes === 1;
      }
      const t = sqlDate(now());
      return (
        finishStmt.run(
          outcome.status,
          outcome.error?.code ?? null,
          outcome.error?.message ?? null,
          outcome.error?.nodeId ?? null,
          outcome.outputJson ?? null,
          t,
          t,
          null,
          runId,
          workerId,
        ).changes === 1
      );
    },
    reap: () => reapTx.immediate(),
    recoverOrphans: () => subflowOrphans.run().changes + orphans.run().changes,
    requestCancel(runId) {
      const row = statusOf.get(runId) as { status: string } | undefined;
      if (!row) return "not_found";
      if (isFinishedRunStatus(row.status)) return "already_finished";
      if (cancelQueued.run(sqlDate(now()), runId).changes === 1) return "cancelled";
      cancelRequested.add(runId);
      return "signalled";
    },
    isCancelRequested: (runId) => cancelRequested.has(runId),
  };
}
