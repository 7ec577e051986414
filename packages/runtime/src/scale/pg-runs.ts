import { newId } from "@switchyard/db";
import { inTransaction } from "@switchyard/db/postgres";
import type { RunChannel } from "@switchyard/contracts/runs";
import type pg from "pg";
import type { Admission, ClaimedRun, NewRun, RunOutcome } from "../queue/types";
import { MAX_CLAIMS } from "../queue/sqlite-run-queue";

// Timestamps are `timestamp(3)` in UTC (Prisma's layout). Values go in as ISO strings and are converted in
// SQL, so neither the pg driver's local-time conversion nor the server's time zone can shift them.
const NOW = `(now() AT TIME ZONE 'UTC')`;
const ts = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;
const iso = (ms: number) => new Date(ms).toISOString();

const claimedColumns = `id, "flowId", "flowVersion", channel, "triggerPayload" AS "payloadJson", attempts,
  to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;

/** What admission wrote: the runs that still need a queue job (not duplicates, not claimed in-process). */
export interface AdmittedBatch {
  admissions: Admission[];
  toQueue: { id: string; delayMs: number }[];
}

/**
 * The Run table on PostgreSQL: the system of record of every run's state. The queue (BullMQ) only says
 * which run a worker should look at next; these statements decide whether it may, so a duplicate or
 * stale job can never run a finished run again.
 */
export function createPgRuns(pool: pg.Pool) {
  async function admitOne(c: pg.PoolClient, r: NewRun & { id: string }): Promise<Admission> {
    if (r.idempotency) {
      // Insert-or-take-over-an-expired-key in one statement: two processes with the same key can't both win.
      const won = await c.query(
        `INSERT INTO "IdempotencyKey" (key, "runId", "expiresAt") VALUES ($1, $2, ${ts(3)})
         ON CONFLICT (key) DO UPDATE SET "runId" = EXCLUDED."runId", "expiresAt" = EXCLUDED."expiresAt"
           WHERE "IdempotencyKey"."expiresAt" <= ${NOW}
         RETURNING "runId"`,
        [r.idempotency.key, r.id, iso(Date.now() + r.idempotency.ttlMs)],
      );
      if (won.rowCount === 0) {
        const seen = await c.query<{ runId: string }>(`SELECT "runId" FROM "IdempotencyKey" WHERE key = $1`, [
          r.idempotency.key,
        ]);
        return { id: seen.rows[0]!.runId, duplicate: true };
      }
    }
    if (r.claimFor) {
      const { rows } = await c.query<ClaimedRun>(
        `INSERT INTO "Run" (id, "flowId", "flowVersion", status, channel, "triggerPayload", "availableAt", attempts,
           "rerunOf", "createdAt", "leaseOwner", "leaseExpiresAt", "startedAt")
         VALUES ($1, $2, $3, 'running', $4, $5, ${NOW}, 1, $6, ${NOW}, $7, ${ts(8)}, ${NOW})
         RETURNING ${claimedColumns}`,
        [
          r.id,
          r.flowId,
          r.flowVersion,
          r.channel,
          r.payloadJson,
          r.rerunOf ?? null,
          r.claimFor.workerId,
          iso(Date.now() + r.claimFor.leaseMs),
        ],
      );
      return { id: r.id, duplicate: false, claimed: { ...rows[0]!, fresh: true } };
    }
    await c.query(
      `INSERT INTO "Run" (id, "flowId", "flowVersion", status, channel, "triggerPayload", "availableAt", attempts, "rerunOf", "createdAt")
       VALUES ($1, $2, $3, 'queued', $4, $5, ${NOW}, 0, $6, ${NOW})`,
      [r.id, r.flowId, r.flowVersion, r.channel, r.payloadJson, r.rerunOf ?? null],
    );
    return { id: r.id, duplicate: false };
  }

  /** Plain runs of a batch go in with one statement: one round trip however many arrived together. */
  async function insertPlain(c: pg.PoolClient, rows: (NewRun & { id: string })[]) {
    if (rows.length === 0) return;
    await c.query(
      `INSERT INTO "Run" (id, "flowId", "flowVersion", status, channel, "triggerPayload", "availableAt", attempts, "rerunOf", "createdAt")
       SELECT u.id, u.flow, u.version, 'queued', u.channel, u.payload, ${NOW}, 0, u.rerun, ${NOW}
       FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[])
         AS u(id, flow, version, channel, payload, rerun)`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.flowId),
        rows.map((r) => r.flowVersion),
        rows.map((r) => r.channel),
        rows.map((r) => r.payloadJson),
        rows.map((r) => r.rerunOf ?? null),
      ],
    );
  }

  return {
    /** Admits a batch in one transaction; resolves after COMMIT (the acknowledgement point). */
    admit(batch: (NewRun & { id: string })[]): Promise<AdmittedBatch> {
      return inTransaction(pool, async (c) => {
        const plain = batch.filter((r) => !r.idempotency && !r.claimFor && !r.completed);
        await insertPlain(c, plain);
        const admissions: Admission[] = [];
        for (const r of batch) {
          if (r.completed)
            throw new Error("runs finished in memory are recorded only by the single-process mode");
          admissions.push(plain.includes(r) ? { id: r.id, duplicate: false } : await admitOne(c, r));
        }
        const toQueue = admissions
          .filter((a) => !a.duplicate && !a.claimed)
          .map((a) => ({ id: a.id, delayMs: 0 }));
        return { admissions, toQueue };
      });
    },

    /**
     * A worker holding the run's queue job takes the run: queued and waiting runs, and running ones whose
     * previous holder lost the job (the queue hands a job out again only once its holder's lock expired).
     * Returns undefined for a finished or cancelled run (its job is stale) and for one not due yet.
     */
    async take(
      runId: string,
      workerId: string,
      leaseMs: number,
    ): Promise<ClaimedRun | "not_due" | undefined> {
      const { rows } = await pool.query<ClaimedRun & { due: boolean }>(
        `UPDATE "Run" SET status = 'running', "leaseOwner" = $2, "leaseExpiresAt" = ${ts(3)}, attempts = attempts + 1,
           "startedAt" = COALESCE("startedAt", ${NOW})
         WHERE id = $1 AND status IN ('queued', 'waiting', 'running') AND "availableAt" <= ${NOW} + interval '1 second'
         RETURNING ${claimedColumns}`,
        [runId, workerId, iso(Date.now() + leaseMs)],
      );
      if (rows[0]) return rows[0];
      const due = await pool.query(`SELECT 1 FROM "Run" WHERE id = $1 AND status IN ('queued', 'waiting')`, [
        runId,
      ]);
      return due.rowCount ? "not_due" : undefined;
    },

    /** Children of flow.call ran inside a parent that stopped: the parent calls again when it resumes. */
    async failOrphanedChildren(parentRunId: string): Promise<number> {
      const r = await pool.query(
        `UPDATE "Run" SET status = 'failed', "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "errorCode" = 'worker_lost',
           "errorMessage" = 'the process running the calling flow stopped; the caller calls again when it resumes', "endedAt" = ${NOW}
         WHERE status = 'running' AND "leaseOwner" = $1`,
        [`subflow:${parentRunId}`],
      );
      return r.rowCount ?? 0;
    },

    async heartbeat(runIds: string[], workerId: string, leaseMs: number): Promise<Set<string>> {
      if (runIds.length === 0) return new Set();
      const { rows } = await pool.query<{ id: string }>(
        `UPDATE "Run" SET "leaseExpiresAt" = ${ts(3)} WHERE id = ANY($1::text[]) AND "leaseOwner" = $2 AND status = 'running'
         RETURNING id`,
        [runIds, workerId, iso(Date.now() + leaseMs)],
      );
      return new Set(rows.map((r) => r.id));
    },

    /**
     * Records a terminal outcome and the run's last checkpoints in one statement (one round trip, atomic):
     * the steps are written even if another worker took the run meanwhile, as in a transaction would be.
     */
    async finishWithSteps(
      runId: string,
      workerId: string,
      outcome: RunOutcome,
      steps: (offset: number) => { sql: string; params: unknown[] } | undefined,
    ): Promise<boolean> {
      const params: unknown[] = [
        outcome.status,
        outcome.error?.code ?? null,
        outcome.error?.message ?? null,
        outcome.error?.nodeId ?? null,
        outcome.outputJson ?? null,
        runId,
        workerId,
      ];
      const insert = steps(params.length);
      const r = await pool.query(
        `${insert ? `WITH steps AS (${insert.sql}) ` : ""}UPDATE "Run" SET status = $1, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
           "errorCode" = $2, "errorMessage" = $3, "errorNodeId" = $4, output = $5, "endedAt" = ${NOW},
           "durationMs" = (EXTRACT(EPOCH FROM (${NOW} - COALESCE("startedAt", ${NOW}))) * 1000)::int
         WHERE id = $6 AND "leaseOwner" = $7 AND status = 'running'`,
        insert ? [...params, ...insert.params] : params,
      );
      return r.rowCount === 1;
    },

    /** Records an outcome (with the checkpoints `before` writes) if this worker still holds the run. */
    async finish(
      runId: string,
      workerId: string,
      outcome: RunOutcome,
      before?: (c: pg.PoolClient) => Promise<void>,
    ): Promise<boolean> {
      return inTransaction(pool, async (c) => {
        await before?.(c);
        if (outcome.status === "waiting" && outcome.resumeAt) {
          const r = await c.query(
            `UPDATE "Run" SET status = 'waiting', "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "availableAt" = ${ts(1)}, attempts = 0
             WHERE id = $2 AND "leaseOwner" = $3 AND status = 'running'`,
            [outcome.resumeAt.toISOString(), runId, workerId],
          );
          return r.rowCount === 1;
        }
        const r = await c.query(
          `UPDATE "Run" SET status = $1, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "errorCode" = $2, "errorMessage" = $3,
             "errorNodeId" = $4, output = $5, "endedAt" = ${NOW},
             "durationMs" = (EXTRACT(EPOCH FROM (${NOW} - COALESCE("startedAt", ${NOW}))) * 1000)::int
           WHERE id = $6 AND "leaseOwner" = $7 AND status = 'running'`,
          [
            outcome.status,
            outcome.error?.code ?? null,
            outcome.error?.message ?? null,
            outcome.error?.nodeId ?? null,
            outcome.outputJson ?? null,
            runId,
            workerId,
          ],
        );
        return r.rowCount === 1;
      });
    },

    /** Ends a run whose workers kept dying (a poison run must not loop forever). */
    async abandon(runId: string, workerId: string, attempts: number): Promise<boolean> {
      const r = await pool.query(
        `UPDATE "Run" SET status = 'failed', "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "errorCode" = 'worker_lost',
           "errorMessage" = $3, "endedAt" = ${NOW} WHERE id = $1 AND "leaseOwner" = $2 AND status = 'running'`,
        [runId, workerId, `the worker running this run stopped ${attempts - 1} times; giving up`],
      );
      return r.rowCount === 1;
    },

    /** Cancels a run no worker holds; undefined when it is running (or missing, or finished). */
    async cancelUnclaimed(
      runId: string,
    ): Promise<"cancelled" | "running" | "not_found" | "already_finished"> {
      const r = await pool.query(
        `UPDATE "Run" SET status = 'cancelled', "endedAt" = ${NOW}, "errorCode" = 'cancelled', "errorMessage" = 'cancelled before it started'
         WHERE id = $1 AND status IN ('queued', 'waiting')`,
        [runId],
      );
      if (r.rowCount === 1) return "cancelled";
      const { rows } = await pool.query<{ status: string }>(`SELECT status FROM "Run" WHERE id = $1`, [
        runId,
      ]);
      if (!rows[0]) return "not_found";
      return rows[0].status === "running" ? "running" : "already_finished";
    },

    async runRow(runId: string): Promise<{ flowId: string; channel: RunChannel } | undefined> {
      const { rows } = await pool.query<{ flowId: string; channel: RunChannel }>(
        `SELECT "flowId", channel FROM "Run" WHERE id = $1`,
        [runId],
      );
      return rows[0];
    },

    async runningFlows(): Promise<Set<string>> {
      const { rows } = await pool.query<{ flowId: string }>(
        `SELECT DISTINCT "flowId" FROM "Run" WHERE status = 'running'`,
      );
      return new Set(rows.map((r) => r.flowId));
    },

    /**
     * Runs admitted (committed) more than `olderThanMs` ago that are still waiting for a worker: the
     * reconciler offers each to the queue again (a job that still exists is left as it is).
     */
    async due(olderThanMs: number, limit: number): Promise<{ id: string; delayMs: number }[]> {
      const { rows } = await pool.query<{ id: string; delayMs: number }>(
        `SELECT id, GREATEST(0, EXTRACT(EPOCH FROM ("availableAt" - ${NOW})) * 1000)::int AS "delayMs"
         FROM "Run" WHERE status IN ('queued', 'waiting') AND "createdAt" < ${NOW} - make_interval(secs => $1::float / 1000)
         ORDER BY "availableAt" LIMIT $2`,
        [olderThanMs, limit],
      );
      return rows;
    },

    /** Runs held by a lease that expired long ago and whose job is gone (see the reconciler). */
    async expiredLeases(graceMs: number, limit: number): Promise<string[]> {
      const { rows } = await pool.query<{ id: string }>(
        `SELECT id FROM "Run" WHERE status = 'running' AND "leaseOwner" NOT LIKE 'subflow:%'
           AND "leaseExpiresAt" < ${NOW} - make_interval(secs => $1::float / 1000) LIMIT $2`,
        [graceMs, limit],
      );
      return rows.map((r) => r.id);
    },

    newId,
    MAX_CLAIMS,
  };
}

export type PgRuns = ReturnType<typeof createPgRuns>;
