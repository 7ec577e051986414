import { mkdirSync } from "node:fs";
import path from "node:path";
import {
  applyMigrations,
  applyPostgresMigrations,
  openPostgres,
  type PostgresHandle,
  type StorageHandle,
  createFlowRepo,
  createRunRepo,
  createSettingsRepo,
  type DatabaseHandle,
  type FlowRepo,
  openDatabase,
  type RunRepo,
  type SettingsRepo,
} from "@switchyard/db";
import { type AuthService, createAuthService } from "./auth/service";
import type { Config } from "./config";
import { lockDataDir, makePrivateFile } from "./data-dir-lock";
import type { Logger } from "./logger";
import { createRunControl, type RunControl } from "./runs/control";
import { seedFirstStart } from "./seed";
import { createServices, type Services } from "./services";
import type { HostRole } from "./scale/pg-parts";
import { checkScaleServices } from "./scale/startup-checks";
import type { CatalogueEntry } from "@switchyard/contracts/catalogue";
import type { HostExtensions } from "./triggers/registry";
import { version } from "./version";

export interface Host {
  config: Config;
  log: Logger;
  version: string;
  /** SQLite (embedded default) or PostgreSQL (SWITCHYARD_DATABASE_URL). */
  db: StorageHandle;
  /** Which parts of the host this process runs (always "all" on SQLite). */
  role: HostRole;
  flows: FlowRepo;
  runs: RunRepo;
  settings: SettingsRepo;
  auth: AuthService;
  services: Services;
  /** Starting, cancelling and re-running runs; activation. */
  control: RunControl;
  /**
   * Every node and trigger type this host runs, shipped and extra, as the editor's palette and config
   * forms read them. Built once.
   */
  catalogue(): CatalogueEntry[];
  /** Cheap liveness check of the database. */
  dbHealth(): Promise<"ok" | "error">;
  /** What /api/health reports: the database, and on scale-out the queue and the live workers. */
  health(): Promise<HostHealth>;
  /** Starts the worker and binds the triggers of active flows. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface HostHealth {
  status: "ok" | "error";
  version: string;
  role: HostRole;
  db: "ok" | "error";
  /** Scale-out only: BullMQ's job counts and the worker processes connected to the queue. */
  queue?: { waiting: number; active: number; delayed: number; workers: number } | "error";
}

/**
 * Locks the data dir, migrates, seeds on first start, builds the services. Nothing touches the data dir
 * before the lock. `nodeTypes` and `triggerListeners` add types beyond the shipped ones.
 */
export async function createHost(
  config: Config,
  log: Logger,
  opts: { seed?: boolean; role?: HostRole } & HostExtensions = {},
): Promise<Host> {
  if (config.scale) return createScaleHost(config, log, opts);
  const lock = lockDataDir(config.dataDir);
  let db: DatabaseHandle | undefined;
  let services: Services | undefined;
  try {
    makePrivateFile(config.dbFile);
    makePrivateFile(config.memoryFile);
    db = openDatabase(config.dbFile);
    const migrated = applyMigrations(db.sql, {
      backupTo: (name) => path.join(config.dataDir, `switchyard.db.before-${name}.bak`),
    });
    if (migrated.applied.length)
      log.info({ applied: migrated.applied, backup: migrated.backupFile }, "database migrated");
    const flows = createFlowRepo(db.prisma);
    const settings = createSettingsRepo(db.prisma);
    if (opts.seed !== false && (await seedFirstStart({ flows, settings })))
      log.info("seeded the example flow");
    const handle = db;
    const svc = await createServices({ config, log, db: handle, flows, settings, extensions: opts });
    const dbHealth = async () => {
      try {
        handle.sql.prepare("SELECT 1").get();
        return "ok" as const;
      } catch {
        return "error" as const;
      }
    };
    services = svc;
    let started = false;
    return {
      config,
      log,
      version,
      db: handle,
      role: "all",
      flows,
      runs: createRunRepo(handle.prisma),
      settings,
      auth: createAuthService({ db: handle, log }),
      services: svc,
      control: createRunControl({ flows, services: svc }),
      catalogue: () => svc.types.catalogue(),
      dbHealth,
      async health() {
        const db = await dbHealth();
        return { status: db, version, role: "all", db };
      },
      async start() {
        started = true;
        await svc.start();
      },
      async close() {
        if (started) await svc.stop();
        else svc.memory.close();
        await handle.close();
        lock.release();
      },
    };
  } catch (e) {
    services?.memory.close();
    await db?.close().catch(() => {});
    lock.release();
    throw e;
  }
}

/**
 * The scale-out host: PostgreSQL + Redis, shared by any number of processes. Both must answer before
 * anything is written; migrations run under an advisory lock; there is no data-dir lock (the data dir holds
 * only the key file, memory and attachments, which several processes may share).
 */
async function createScaleHost(
  config: Config,
  log: Logger,
  opts: { seed?: boolean; role?: HostRole } & HostExtensions,
): Promise<Host> {
  const scale = config.scale!;
  const role = opts.role ?? "all";
  await checkScaleServices(scale);
  // No lock creates it here: several processes may share the folder (memory, attachments, key file).
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  makePrivateFile(config.memoryFile);
  // A worker's runs each hold a connection for a moment per step: size its pool to its concurrency.
  const handle = openPostgres(scale.databaseUrl, {
    max: role === "web" ? 10 : Math.min(config.workerConcurrency + 4, 64),
  });
  let services: Services | undefined;
  try {
    const migrated = await applyPostgresMigrations(handle.pool);
    if (migrated.applied.length) log.info({ applied: migrated.applied }, "database migrated");
    const flows = createFlowRepo(handle.prisma);
    const settings = createSettingsRepo(handle.prisma);
    // Several processes start at once: the first seeds, the others find the flow already there.
    if (opts.seed !== false && role !== "worker") {
      const seeded = await withAdvisoryLock(handle, () => seedFirstStart({ flows, settings }));
      if (seeded) log.info("seeded the example flow");
    }
    const svc = await createServices({ config, log, db: handle, role, flows, settings, extensions: opts });
    services = svc;
    const dbHealth = async () => {
      try {
        await handle.pool.query("SELECT 1");
        return "ok" as const;
      } catch {
        return "error" as const;
      }
    };
    let started = false;
    return {
      config,
      log,
      version,
      db: handle,
      role,
      flows,
      runs: createRunRepo(handle.prisma, { provider: "postgres" }),
      settings,
      auth: createAuthService({ db: handle, log }),
      services: svc,
      control: createRunControl({ flows, services: svc }),
      catalogue: () => svc.types.catalogue(),
      dbHealth,
      async health() {
        const [db, queue] = await Promise.all([
          dbHealth(),
          svc.scale!.jobs.counts().then(
            (c) => c,
            () => "error" as const,
          ),
        ]);
        const status = db === "ok" && queue !== "error" ? "ok" : "error";
        return { status, version, role, db, queue };
      },
      async start() {
        started = true;
        await svc.start();
      },
      async close() {
        if (started) await svc.stop();
        else {
          svc.memory.close();
          await svc.scale?.stop();
        }
        await handle.close();
      },
    };
  } catch (e) {
    services?.memory.close();
    await services?.scale?.stop().catch(() => {});
    await handle.close().catch(() => {});
    throw e;
  }
}

async function withAdvisoryLock<T>(db: PostgresHandle, fn: () => Promise<T>): Promise<T> {
  const c = await db.pool.connect();
  try {
    await c.query("SELECT pg_advisory_lock($1)", [0x5357_5344]); // "SWSD"
    return await fn();
  } finally {
    await c.query("SELECT pg_advisory_unlock($1)", [0x5357_5344]).catch(() => {});
    c.release();
  }
}
