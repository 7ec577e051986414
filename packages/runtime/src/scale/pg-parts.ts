import type { PostgresHandle, SettingsRepo } from "@switchyard/db";
import type { RunProgressEvent } from "@switchyard/engine";
import type { RunCoordinator } from "node-cron";
import { HostError } from "../errors/codes";
import type { EventBus, RunFinished } from "../events";
import type { Logger } from "../logger";
import type { ClaimedRun, RunOutcome } from "../queue/types";
import {
  parseStoredPolicy,
  RETENTION_SETTING,
  RetentionPolicy,
  type RetentionPolicyInput,
} from "../retention/policy";
import type { ResponseHub } from "../runs/response-hub";
import type { RunExecutor, Worker } from "../worker/worker";
import { createRunBus } from "./bus";
import { createRedisRunCoordinator } from "./cron-coordinator";
import { createPgRuns } from "./pg-runs";
import { createPgStepStore } from "./pg-step-store";
import { createRunJobs } from "./run-jobs";
import { createNoWorker, createQueueWorker } from "./run-worker";
import type { StepExtras } from "../runs/step-extras";

/** Which parts of the host a process runs (`switchyard start` = all, `web`, `worker`). */
export type HostRole = "all" | "web" | "worker";

/** How often every process offers the queue runs committed without a job (see run-jobs.ts). */
const RECONCILE_EVERY_MS = 5_000;

/**
 * The run path on PostgreSQL + Redis (BullMQ): the same seams the SQLite host has (admission, step store,
 * worker, events), built so any number of web and worker processes can share one database and one Redis.
 */
export function createPgRunParts(o: {
  db: PostgresHandle;
  redisUrl: string;
  /** Prefix of every Redis key, channel and BullMQ queue of this deployment. */
  prefix: string;
  role: HostRole;
  concurrency: number;
  lockMs?: number;
  extras: StepExtras;
  events: EventBus;
  responses: ResponseHub;
  log: Logger;
}) {
  const bus = createRunBus(o.redisUrl, o.prefix);
  const runs = createPgRuns(o.db.pool);
  const jobs = createRunJobs({ runs, redisUrl: o.redisUrl, prefix: o.prefix, bus, log: o.log });
  const stepStore = createPgStepStore(o.db.pool, o.extras);
  const coordinator: RunCoordinator = createRedisRunCoordinator(bus.redis, `${process.pid}`, o.prefix);
  const serves = o.role !== "worker";

  // Ingress processes re-emit what workers report, so the live view, SSE and triggers see every run.
  if (serves) {
    bus.on("run.event", (e) => o.events.emit("run.event", e));
    bus.on("run.finished", (f) => o.events.emit("run.finished", f));
    bus.on("run.response", ({ runId, response }) => o.responses.deliver(runId, response));
  }

  // The cron overlap policy asks synchronously; across processes a one-second-old answer is what we have.
  let running = new Set<string>();
  const refreshRunning = () =>
    runs
      .runningFlows()
      .then((s) => {
        running = s;
      })
      .catch((err) => o.log.warn({ err }, "reading running flows failed"));

  let reconcileTimer: NodeJS.Timeout | undefined;
  const reconcile = () =>
    jobs
      .reconcile()
      .then((n) => n && o.log.info({ runs: n }, "offered committed runs to the queue again"))
      .catch((err) => o.log.warn({ err }, "reconciling the run queue failed"));

  return {
    bus,
    runs,
    jobs,
    stepStore,
    coordinator,
    isRunning: (flowId: string) => running.has(flowId),
    runRow: (runId: string) => runs.runRow(runId),
    /** The executor's answer channel: a sync webhook's request may wait in another process. */
    executorResponses: {
      ...o.responses,
      deliver: (runId: string, response: Parameters<ResponseHub["deliver"]>[1]) => {
        bus.publish("run.response", { runId, response });
        return true;
      },
    } satisfies ResponseHub,
    onEvent: (e: RunProgressEvent) => {
      bus.publish("run.event", e);
      // A worker-only process hears nothing back from the bus: its own listeners get the event here.
      if (!serves) o.events.emit("run.event", e);
    },
    publishFinished: (f: RunFinished) => bus.publish("run.finished", f),
    createWorker(
      execute: RunExecutor,
      onFinished: (id: string, out: RunOutcome, run: ClaimedRun) => void,
    ): Worker {
      if (o.role === "web") return createNoWorker();
      return createQueueWorker({
        runs,
        steps: stepStore,
        bus,
        redisUrl: o.redisUrl,
        prefix: o.prefix,
        execute,
        log: o.log,
        concurrency: o.concurrency,
        ...(o.lockMs ? { lockMs: o.lockMs } : {}),
        onFinished,
      });
    },
    /** flow.call children are recorded with their buffered checkpoints, like any run. */
    async finishChild(runId: string, owner: string, outcome: RunOutcome) {
      await runs.finish(runId, owner, outcome, (c) => stepStore.flush(runId, c));
    },
    start() {
      void refreshRunning();
      void reconcile();
      reconcileTimer = setInterval(() => {
        void refreshRunning();
        void reconcile();
      }, RECONCILE_EVERY_MS);
      reconcileTimer.unref();
    },
    async stop() {
      if (reconcileTimer) clearInterval(reconcileTimer);
      await jobs.close();
      await bus.close();
    },
  };
}

/** Retention on PostgreSQL: the policy is stored, but pruning runs only on the SQLite database so far. */
export function pgRetention(settings: SettingsRepo) {
  const notYet = () =>
    new HostError(
      "unavailable",
      "retention pruning runs only on the SQLite database so far (not on PostgreSQL)",
    );
  return {
    policySchema: RetentionPolicy,
    getPolicy: async () => parseStoredPolicy(await settings.get(RETENTION_SETTING)),
    async setPolicy(input: RetentionPolicyInput): Promise<RetentionPolicy> {
      const policy = RetentionPolicy.parse(input);
      await settings.set(RETENTION_SETTING, policy);
      return policy;
    },
    size: (): never => {
      throw notYet();
    },
    storage: async (): Promise<never> => {
      throw notYet();
    },
    policySource: async (): Promise<"default" | "saved"> =>
      (await settings.get(RETENTION_SETTING)) === undefined ? "default" : "saved",
    lastRun: () => undefined,
    runOnce: async (): Promise<never> => {
      throw notYet();
    },
    start() {},
    async stop() {},
  };
}
