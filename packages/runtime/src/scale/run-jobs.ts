import { newId } from "@switchyard/db";
import { Queue } from "bullmq";
import type { Logger } from "../logger";
import type { Admission, NewRun } from "../queue/types";
import type { RunBus } from "./bus";
import type { PgRuns } from "./pg-runs";

export const RUN_QUEUE_NAME = "switchyard-runs";

/** BullMQ connection options for a redis:// URL (BullMQ needs retries unbounded on its blocking connections). */
export const bullConnection = (url: string) => ({ url, maxRetriesPerRequest: null });

/** A run's job: its id is the run id, so offering the same run twice while a job exists is a no-op. */
export const jobOf = (run: { id: string; delayMs: number }) => ({
  name: "run",
  data: { runId: run.id },
  opts: { jobId: run.id, delay: run.delayMs, removeOnComplete: true, removeOnFail: true },
});

interface Pending {
  run: NewRun & { id: string };
  resolve: (a: Admission) => void;
  reject: (e: unknown) => void;
}

export type CancelResult = "cancelled" | "signalled" | "not_found" | "already_finished";

/**
 * Admission for the web role: the run row commits in PostgreSQL (that COMMIT is what the sender's
 * acknowledgement waits for), then its BullMQ job is added. Admissions arriving together share one
 * transaction and one `addBulk`. A crash between COMMIT and the add leaves a queued row without a job;
 * the reconciler (`reconcile`) offers such rows to the queue again, so no acknowledged run is lost.
 */
export function createRunJobs(o: {
  runs: PgRuns;
  redisUrl: string;
  prefix: string;
  bus: RunBus;
  log: Logger;
}) {
  const queue = new Queue(RUN_QUEUE_NAME, { connection: bullConnection(o.redisUrl), prefix: o.prefix });
  queue.on("error", (err) => o.log.warn({ err }, "run queue connection error"));
  let pending: Pending[] = [];
  let flushing = false;

  const offer = async (jobs: { id: string; delayMs: number }[]) => {
    if (jobs.length === 0) return;
    try {
      await queue.addBulk(jobs.map(jobOf));
    } catch (err) {
      // The rows are committed: the reconciler enqueues them once Redis answers again.
      o.log.error({ err, runs: jobs.length }, "adding run jobs failed; the reconciler will retry");
    }
  };

  const flush = async () => {
    if (flushing || pending.length === 0) return;
    flushing = true;
    const batch = pending;
    pending = [];
    try {
      let admitted: Awaited<ReturnType<PgRuns["admit"]>>;
      try {
        admitted = await o.runs.admit(batch.map((p) => p.run));
      } catch {
        // One bad row must not fail its neighbours: retry them one by one.
        for (const p of batch) {
          try {
            const one = await o.runs.admit([p.run]);
            await offer(one.toQueue);
            p.resolve(one.admissions[0]!);
          } catch (err) {
            p.reject(err);
          }
        }
        return;
      }
      await offer(admitted.toQueue);
      for (const [i, p] of batch.entries()) p.resolve(admitted.admissions[i]!);
    } finally {
      flushing = false;
      // Whatever arrived during this commit is the next group.
      if (pending.length) void flush();
    }
  };

  return {
    queue,
    enqueue(run: NewRun): Promise<Admission> {
      const id = run.id ?? newId();
      return new Promise<Admission>((resolve, reject) => {
        pending.push({ run: { ...run, id }, resolve, reject });
        if (pending.length === 1) setImmediate(() => void flush());
      });
    },

    async requestCancel(runId: string): Promise<CancelResult> {
      const r = await o.runs.cancelUnclaimed(runId);
      if (r === "cancelled") {
        await queue.remove(runId).catch(() => 0);
        return "cancelled";
      }
      if (r !== "running") return r;
      await o.bus.requestCancel(runId);
      return "signalled";
    },

    /**
     * Offers the queue every run that is committed but not running after `graceMs`, and every running run
     * whose lease expired `graceMs` ago (its worker died and its job is gone). Jobs that still exist are
     * left alone (same job id), so this is safe to run in every process at any time.
     */
    async reconcile(graceMs = 10_000): Promise<number> {
      const due = await o.runs.due(graceMs, 1000);
      const lost = (await o.runs.expiredLeases(graceMs, 1000)).map((id) => ({ id, delayMs: 0 }));
      const all = [...due, ...lost];
      if (all.length) await queue.addBulk(all.map(jobOf));
      return all.length;
    },

    async counts() {
      const c = (await queue.getJobCounts("waiting", "active", "delayed", "prioritized")) as Record<
        string,
        number
      >;
      return {
        waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
        active: c.active ?? 0,
        delayed: c.delayed ?? 0,
        workers: await queue.getWorkersCount(),
      };
    },

    close: () => queue.close(),
  };
}

export type RunJobs = ReturnType<typeof createRunJobs>;
