import { agentRefCheck } from "@switchyard/agent";
import type { FlowRepo, SettingsRepo, StorageHandle } from "@switchyard/db";
import type { NodeRegistry, RunProgressEvent, ValidateOptions } from "@switchyard/engine";
import { openMemory } from "@switchyard/memory";
import {
  createConnectionPools,
  createHttpClient,
  createSharedConnections,
  type GuardedHttpClient,
  nodeTypes,
  webhookTrigger,
} from "@switchyard/nodes";
import { stepActionTools } from "./agent-tools";
import { type AgentServices, createAgentServices, defaultAgentsDir } from "./agents";
import type { Config } from "./config";
import { createEventBus, type RunFinished } from "./events";
import type { Logger } from "./logger";
import { createSqliteRunQueue } from "./queue/sqlite-run-queue";
import { createErrorFlows } from "./runs/error-flows";
import { createRunExecutor } from "./runs/executor";
import { createFlowCache } from "./runs/flow-cache";
import { createInlineRuns } from "./runs/inline-runs";
import { createRetentionJob } from "./retention/job";
import { createSearchIndexing } from "./runs/search-indexing";
import { createResponseHub } from "./runs/response-hub";
import { createSqliteStepStore } from "./runs/sqlite-step-store";
import { createStepRuns } from "./runs/step-runs";
import { createExpressionPreview } from "./runs/expression-preview";
import { createExpressionSamples } from "./runs/expression-sample";
import { createStepExtras } from "./runs/step-extras";
import { createSubflowCaller } from "./runs/subflows";
import { createVault, loadOrCreateKey } from "./secrets/vault";
import { createAttachmentStore } from "./runs/attachments";
import { createTriggerManager } from "./triggers/manager";
import { createTypeRegistry, type HostExtensions } from "./triggers/registry";
import { createShippedListeners } from "./triggers/shipped";
import { createWebhookHandler } from "./triggers/webhook/handler";
import { createHookRegistry } from "./triggers/webhook/registry";
import { createWebhookAdmission } from "./triggers/webhook/wiring";
import { createWorker, type FinishRequest, type Worker } from "./worker/worker";
import type { HostRole } from "./scale/pg-parts";
import type { ClaimedRun, NewRun, RunOutcome } from "./queue/types";
import type { StepStore } from "@switchyard/engine";

/**
 * Builds every long-lived part of the host from the database handle. Nothing listens or runs until
 * `start()`: commands like `migrate` build the host without starting it.
 */
export async function createServices(o: {
  config: Config;
  log: Logger;
  db: StorageHandle;
  /** Scale-out only (PostgreSQL + Redis): which parts this process runs. The SQLite host runs all. */
  role?: HostRole;
  flows: FlowRepo;
  settings: SettingsRepo;
  /** Node types and trigger listeners beyond the shipped ones. */
  extensions?: HostExtensions;
}) {
  const { config, log, db } = o;
  const events = createEventBus();
  const vault = createVault(db.prisma, loadOrCreateKey(config.dataDir, config.encryptionKey));
  // The SSRF allow-list is a setting: rebuilding the client on change takes effect for the next request.
  let httpClient = createHttpClient({
    allowHosts: ((await o.settings.get("http.allowHosts")) as string[] | undefined) ?? [],
  });
  // vetHost: the same guard for SMTP hosts (email.send), so it must survive this indirection too.
  const http: GuardedHttpClient = {
    request: (req) => httpClient.request(req),
    vetHost: (host, target) => httpClient.vetHost(host, target),
  };
  const reloadHttp = async () => {
    httpClient = createHttpClient({
      allowHosts: ((await o.settings.get("http.allowHosts")) as string[] | undefined) ?? [],
    });
  };
  // One pool per database/broker credential, shared by every run; closed after a minute unused and on stop.
  const pools = createConnectionPools();
  const hooks = { production: createHookRegistry(), test: createHookRegistry() };
  // Broker connections of publishing nodes, shared per credential across runs; closed when idle or on stop.
  const connections = createSharedConnections();
  const attachments = createAttachmentStore(config.dataDir);
  const extras = createStepExtras();
  const responses = createResponseHub();
  // The run path is chosen once, from the database: SQLite keeps its in-process queue and inline fast path;
  // PostgreSQL runs it over BullMQ so several processes can share it (scale/pg-parts.ts).
  // Imported only on scale-out: BullMQ, ioredis and pg would slow every SQLite start-up.
  const scale = db.kind === "postgres" ? await import("./scale/pg-parts") : undefined;
  const pgParts =
    db.kind === "postgres"
      ? scale!.createPgRunParts({
          db,
          redisUrl: config.scale!.redisUrl,
          prefix: config.scale!.redisPrefix,
          role: o.role ?? "all",
          concurrency: config.workerConcurrency,
          ...(config.scale?.lockMs ? { lockMs: config.scale.lockMs } : {}),
          extras,
          events,
          responses,
          log,
        })
      : undefined;
  const runningOf =
    db.kind === "sqlite"
      ? db.sql.prepare(`SELECT 1 FROM "Run" WHERE flowId = ? AND status = 'running' LIMIT 1`)
      : undefined;
  const isRunning = (flowId: string) =>
    pgParts ? pgParts.isRunning(flowId) : runningOf!.get(flowId) !== undefined;
  const shipped = createShippedListeners({
    webhook: hooks.production,
    email: {
      host: config.smtp.host,
      port: config.smtp.port,
      domain: config.smtp.domain,
      log,
      storeAttachment: (content, meta) => attachments.store(content, meta),
    },
    cron: {
      log,
      store: {
        async getLastFire(flowId, nodeId) {
          const row = await db.prisma.triggerState.findUnique({
            where: { flowId_nodeId: { flowId, nodeId } },
          });
          return row?.lastFireAt ?? undefined;
        },
        async setLastFire(flowId, nodeId, at) {
          await db.prisma.triggerState.upsert({
            where: { flowId_nodeId: { flowId, nodeId } },
            create: { id: `${flowId}:${nodeId}`, flowId, nodeId, kind: "cron", lastFireAt: at },
            update: { lastFireAt: at },
          });
        },
      },
      isRunning,
      ...(pgParts ? { coordinator: pgParts.coordinator } : {}),
    },
    imap: {
      secrets: vault.reader,
      http,
      log,
      storeAttachment: (content, meta) => attachments.store(content, meta),
    },
    brokers: { secrets: vault.reader, guard: http, log },
  });
  const types = createTypeRegistry({
    nodeTypes: [...nodeTypes, ...(o.extensions?.nodeTypes ?? [])],
    listeners: [...shipped.list, ...(o.extensions?.triggerListeners ?? [])],
  });
  const registry: NodeRegistry = types.nodes;
  const memory = openMemory({ file: config.memoryFile, log: (line) => log.info(line) });
  const cache = createFlowCache(o.flows, registry);
  const sqliteQueue = db.kind === "sqlite" ? createSqliteRunQueue(db.sql) : undefined;
  const queue: RunAdmission = pgParts?.jobs ?? sqliteQueue!;
  const sqliteSteps = db.kind === "sqlite" ? createSqliteStepStore(db.sql, extras) : undefined;
  const stepStore: StepStore = pgParts?.stepStore ?? sqliteSteps!;
  const searchIndexing = db.kind === "sqlite" ? createSearchIndexing(db.sql, log) : undefined;
  const retention =
    db.kind === "sqlite"
      ? createRetentionJob({
          sql: db.sql,
          file: db.file,
          settings: o.settings,
          log,
          removeAttachment: attachments.remove,
        })
      : scale!.pgRetention(o.settings);

  let agents: AgentServices | undefined;
  const reloadAgents = async () => {
    agents = await createAgentServices({
      agentsDir: defaultAgentsDir,
      settings: o.settings,
      secrets: vault.reader,
      http,
      memory: memory.reader,
      log,
    });
    return agents;
  };
  await reloadAgents();

  // The one place `run.finished` is emitted: queued runs finish in the worker, sync webhook runs inline.
  // With several processes it goes over Redis, and every serving process (this one too) re-emits it.
  let afterFinish: ((f: RunFinished) => void) | undefined;
  const runFinished = (f: RunFinished) => {
    pgParts ? pgParts.publishFinished(f) : events.emit("run.finished", f);
    // Error flows start here, in the one process where the run finished, not in every process that
    // hears of it over Redis (each would start the error flow once).
    afterFinish?.(f);
  };
  const runRow =
    db.kind === "sqlite"
      ? db.sql.prepare<[string], Pick<RunFinished, "flowId" | "channel">>(
          `SELECT flowId, channel FROM "Run" WHERE id = ?`,
        )
      : undefined;
  /** A queued or parked run cancelled before a worker held it: no worker will say it finished. */
  const cancelledUnclaimed = async (runId: string) => {
    const row = pgParts ? await pgParts.runRow(runId) : runRow!.get(runId);
    if (row) runFinished({ runId, status: "cancelled", ...row });
  };

  // Step runs copy an earlier run's checkpoints with SQLite statements; scale-out refuses them (control.ts).
  const stepRuns = db.kind === "sqlite" ? createStepRuns({ sql: db.sql, registry }) : undefined;
  const execute = createRunExecutor({
    stepRuns,
    flows: cache,
    registry,
    stepStore,
    responses: pgParts?.executorResponses ?? responses,
    extras,
    log,
    http,
    secrets: vault.reader,
    pools,
    connections,
    agents: () => agents!.runner,
    agentTools: (ctx) => stepActionTools(ctx, o.settings),
    subflows: createSubflowCaller({
      flows: o.flows,
      enqueue: (run: NewRun) => queue.enqueue(run),
      finishChild: pgParts
        ? pgParts.finishChild
        : async (runId, owner, outcome) => {
            sqliteSteps!.flushSync(runId);
            sqliteQueue!.finish(runId, owner, outcome);
          },
    }),
    onEvent: pgParts?.onEvent ?? ((e: RunProgressEvent) => events.emit("run.event", e)),
  });
  const onWorkerFinished = (runId: string, outcome: RunOutcome, run: ClaimedRun) => {
    runFinished({ runId, status: outcome.status, flowId: run.flowId, channel: run.channel });
    responses.forget(runId);
  };
  let worker: Worker;
  if (pgParts) worker = pgParts.createWorker(execute, onWorkerFinished);
  else {
    const sql = (db as Extract<StorageHandle, { kind: "sqlite" }>).sql;
    // Outcomes that arrive together, with their runs' buffered checkpoints, commit as one transaction.
    const finishMany = sql.transaction((workerId: string, batch: FinishRequest[]) =>
      batch.map((f) => {
        sqliteSteps!.flushSync(f.runId);
        return sqliteQueue!.finish(f.runId, workerId, f.outcome);
      }),
    );
    worker = createWorker({
      queue: sqliteQueue!,
      execute,
      log,
      finishMany: (workerId, batch) => finishMany(workerId, batch),
      onFinished: onWorkerFinished,
    });
  }

  const triggers = createTriggerManager({
    flows: o.flows,
    cache,
    types,
    async startRun(req) {
      const { id } = await queue.enqueue(req);
      worker.kick();
      return id;
    },
    log,
  });
  events.on("run.finished", (f) => triggers.runFinished(f.flowId));
  const errorFlows = createErrorFlows({
    prisma: db.prisma,
    flows: o.flows,
    cache,
    async startRun(req) {
      const { id } = await queue.enqueue(req);
      worker.kick();
      return id;
    },
    secrets: vault.reader,
    http,
    baseUrl: config.baseUrl,
    log,
  });
  afterFinish = (f) => {
    errorFlows
      .runFinished(f)
      .catch((err: unknown) => log.error({ err, runId: f.runId }, "error flow dispatch failed"));
  };
  // Another web process activated, deactivated or saved a flow: bind what the database now says.
  if (pgParts && (o.role ?? "all") !== "worker")
    pgParts.bus.on("flow.sync", ({ flowId }, mine) => {
      if (!mine)
        triggers
          .sync(flowId)
          .catch((err) => log.error({ err, flowId }, "rebinding a flow's triggers failed"));
    });

  const inline = createInlineRuns({
    cache,
    registry,
    execute,
    stepStore: sqliteSteps!,
    queue,
    responses,
    worker,
    onFinished: (run) => {
      runFinished({ runId: run.id, status: run.status, flowId: run.flowId, channel: webhookTrigger.channel });
      triggers.report(run.flowId, { lastEventAt: new Date().toISOString() });
    },
  });
  const webhookHandler = createWebhookHandler({
    production: hooks.production,
    test: hooks.test,
    ...createWebhookAdmission({ queue, worker, responses, secrets: vault.reader, report: triggers.report }),
    runInline: (binding, payload, payloadJson) => inline.run(binding, payload, payloadJson),
    deliverTestEvent: (binding, payload) => events.emit("webhook.test", { flowId: binding.flowId, payload }),
    now: Date.now,
  });

  return {
    registry,
    /** Every node type and trigger listener of this host, and the catalogue built from them. */
    types,
    events,
    cancelledUnclaimed,
    vault,
    http,
    /** Shared database and broker connections (closed on stop). */
    pools,
    memory,
    cache,
    queue,
    stepStore,
    responses,
    hooks,
    worker,
    triggers,
    errorFlows,
    stepRuns,
    /** The editor's expression help: sample data for a node, and a preview evaluated like a run would. */
    expressionSample: createExpressionSamples({ prisma: db.prisma, registry }),
    previewExpression: createExpressionPreview(),
    /** The IMAP mailbox listener (a "checked once more" hook for tests). */
    imap: shipped.imap,
    /** The inbound e-mail listener (its port, and a failure hook for tests). */
    email: shipped.email,
    /** The MQTT and AMQP trigger listeners (tests look at their connections). */
    brokers: { mqtt: shipped.mqtt, amqp: shipped.amqp },
    /** Broker connections shared by publishing nodes. */
    connections,
    /** The port SMTP really listens on (differs from the config when it asked for 0). */
    smtpPort: () => shipped.email.port(),
    attachments,
    webhookHandler,
    retention,
    agents: () => agents!,
    /** Checks validateFlow cannot make alone: an agent node's `agent_ref` must name a loaded agent. */
    flowChecks: (): ValidateOptions => ({ extraCheck: agentRefCheck(agents!.definitions) }),
    reloadAgents,
    reloadHttp,
    /** Scale-out only: the BullMQ queue, the Redis bus and the PostgreSQL run statements. */
    scale: pgParts,
    async start() {
      pgParts?.start();
      // Only the single process that holds the SQLite data dir knows every `running` row is an orphan.
      const recovered = sqliteQueue?.recoverOrphans() ?? 0;
      if (recovered)
        log.warn(
          { recovered },
          "re-queued runs left running by a stopped process; they resume from their last checkpoint",
        );
      worker.start();
      retention.start();
      searchIndexing?.start();
      if (memory.pendingEmbeddings > 0) {
        // A new embedder (or an interrupted import) left items without vectors: index them in the background.
        log.info({ pending: memory.pendingEmbeddings }, "re-embedding memory items in the background");
        void memory.ingest
          .reembed((done, total) => {
            if (done === total || done % 5000 === 0)
              log.info({ done, total }, "memory re-embedding progress");
          })
          .catch((err: unknown) =>
            log.error({ err }, "memory re-embedding failed; items stay searchable lexically"),
          );
      }
      await triggers.start();
      await triggers.syncAll();
    },
    async stop() {
      await triggers.close();
      await retention.stop();
      await worker.stop();
      await inline.drain();
      searchIndexing?.stop();
      await connections.closeAll();
      await pgParts?.stop();
      await pools.closeAll();
      memory.close();
    },
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;

/** Admission as the rest of the host sees it, whichever queue is behind it. */
export interface RunAdmission {
  enqueue(run: NewRun): ReturnType<import("./queue/types").RunQueue["enqueue"]>;
  requestCancel(
    runId: string,
  ):
    | ReturnType<import("./queue/types").RunQueue["requestCancel"]>
    | Promise<ReturnType<import("./queue/types").RunQueue["requestCancel"]>>;
}
