import type Database from "better-sqlite3";
import { deleteEmptyRunCounts, runVolume, type SettingsRepo } from "@switchyard/db";
import type { Logger } from "../logger";
import {
  DEFAULT_RETENTION,
  parseStoredPolicy,
  RETENTION_SETTING,
  RetentionPolicy,
  type RetentionPolicyInput,
} from "./policy";
import { type StorageStatus, storageStatus } from "./storage";
import { type AttachmentReclaimReport, reclaimAttachments } from "./attachments";
import { type KeyPurgeReport, purgeExpiredIdempotencyKeys } from "./idempotency-keys";
import { type PruneReport, pruneRuns } from "./prune";
import { databaseSize, type ReclaimOptions, type ReclaimReport, reclaimSpace } from "./reclaim";

export interface RetentionJobOptions {
  sql: Database.Database;
  /** The database file, for the WAL size. */
  file: string;
  settings: SettingsRepo;
  log: Logger;
  /** Pause between runs of the job. */
  intervalMs?: number;
  /** Delay of the first run after start, so start-up stays quick. */
  firstRunDelayMs?: number;
  batchSize?: number;
  reclaim?: Partial<ReclaimOptions>;
  now?: () => number;
  /** Deletes a stored attachment file by id (runs/attachments.ts); pruned runs' attachments go with them. */
  removeAttachment?: (id: string) => boolean;
}

export interface RetentionRunReport {
  startedAt: string;
  prune: PruneReport;
  attachments: AttachmentReclaimReport;
  idempotencyKeys: KeyPurgeReport;
  reclaim: ReclaimReport;
  durationMs: number;
}

const defaults = {
  intervalMs: 15 * 60_000,
  firstRunDelayMs: 60_000,
  batchSize: 500,
  reclaim: { vacuumMinFreeBytes: 16 * 1024 * 1024, vacuumMinFreeRatio: 0.25 },
};

/**
 * The pruning job: reads the policy from settings on every run (changes apply without a restart),
 * deletes what it no longer keeps in short batches, then gives the space back to the disk.
 */
export function createRetentionJob(o: RetentionJobOptions) {
  const now = o.now ?? Date.now;
  const intervalMs = o.intervalMs ?? defaults.intervalMs;
  const reclaimOpts: ReclaimOptions = { ...defaults.reclaim, ...o.reclaim };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<RetentionRunReport> | undefined;
  let stopping = false;
  let last: RetentionRunReport | undefined;

  const getPolicy = async () => parseStoredPolicy(await o.settings.get(RETENTION_SETTING));
  /** "default" until someone saves a policy: the retention page says so, and so does the start-up log. */
  const policySource = async (): Promise<"default" | "saved"> =>
    (await o.settings.get(RETENTION_SETTING)) === undefined ? "default" : "saved";

  const run = async (): Promise<RetentionRunReport> => {
    const t0 = performance.now();
    const startedAt = new Date(now()).toISOString();
    const policy = await getPolicy();
    const prune = await pruneRuns(o.sql, policy, {
      now: now(),
      batchSize: o.batchSize ?? defaults.batchSize,
      stopped: () => stopping,
    });
    const attachments = o.removeAttachment
      ? await reclaimAttachments(o.sql, prune.attachmentIds, o.removeAttachment)
      : { deleted: 0, stillReferenced: 0 };
    deleteEmptyRunCounts(o.sql);
    const idempotencyKeys = await purgeExpiredIdempotencyKeys(o.sql, { now: now(), stopped: () => stopping });
    const reclaim = await reclaimSpace(o.sql, o.file, reclaimOpts);
    const report = {
      startedAt,
      prune,
      attachments,
      idempotencyKeys,
      reclaim,
      durationMs: performance.now() - t0,
    };
    if (prune.deletedRuns || idempotencyKeys.deleted || reclaim.action !== "none") {
      o.log.info(
        {
          deletedRuns: prune.deletedRuns,
          overBudgetRuns: prune.overBudgetRuns,
          deletedAttachments: attachments.deleted,
          expiredIdempotencyKeys: idempotencyKeys.deleted,
          longestBatchMs: Math.round(prune.longestBatchMs),
          reclaim: reclaim.action,
          freedBytes: reclaim.before.totalBytes - reclaim.after.totalBytes,
        },
        "retention: pruned old runs and expired idempotency keys",
      );
    }
    last = report;
    return report;
  };

  const schedule = (ms: number) => {
    if (stopping) return;
    timer = setTimeout(() => {
      job.runOnce().catch((err) => o.log.error({ err }, "retention job failed"));
    }, ms);
    timer.unref();
  };

  const job = {
    policySchema: RetentionPolicy,
    getPolicy,
    /** Validates and stores the policy; the next run applies it. */
    async setPolicy(input: RetentionPolicyInput): Promise<RetentionPolicy> {
      const policy = RetentionPolicy.parse(input);
      await o.settings.set(RETENTION_SETTING, policy);
      return policy;
    },
    policySource,
    size: () => databaseSize(o.sql, o.file),
    /** Size, growth and budget for the retention page and the runs page's warning. */
    async storage(): Promise<StorageStatus> {
      return storageStatus(databaseSize(o.sql, o.file), runVolume(o.sql, now()), await getPolicy());
    },
    lastRun: () => last,
    /** Runs the job now (or joins the run in progress). */
    runOnce(): Promise<RetentionRunReport> {
      if (!current) {
        clearTimeout(timer);
        current = run().finally(() => {
          current = undefined;
          schedule(intervalMs);
        });
      }
      return current;
    },
    start() {
      stopping = false;
      schedule(o.firstRunDelayMs ?? defaults.firstRunDelayMs);
      // An install that never saved a policy (new, or upgraded from a version that kept every run)
      // starts deleting old runs now: say so where an operator looks.
      policySource()
        .then((source) => {
          if (source === "default")
            o.log.info(
              { keepDays: DEFAULT_RETENTION.keepDays, keepRuns: DEFAULT_RETENTION.keepRuns },
              `retention: no policy saved, so the default applies: finished runs older than ${DEFAULT_RETENTION.keepDays} days, and beyond the newest ${DEFAULT_RETENTION.keepRuns} of each flow, are deleted. Change it on Settings → Run retention`,
            );
        })
        .catch((err) => o.log.error({ err }, "retention: could not read the policy"));
    },
    /** Stops after the batch in progress; the database is never left mid-transaction. */
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await current?.catch(() => {});
    },
  };
  return job;
}

export type RetentionJob = ReturnType<typeof createRetentionJob>;
