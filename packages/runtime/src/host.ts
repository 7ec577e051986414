import path from "node:path";
import {
  applyMigrations,
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
  // Loaded only on scale-out: BullMQ, ioredis and pg cost the SQLite default's start-up a second or more.
  if (config.scale) return (await import("./scale/scale-host")).createScaleHost(config, log, opts);
  const lock = lockDataDir(config.dataDir);
  let db: DatabaseHandle | undefined;
  let services: Services | undefined;
  try {
    makePrivateFile(config.dbFile);
    makePrivateFile(config.memoryFile);
    db = openDatabase(config.dbFile, {
      backgroundCheckpoints: true,
      onCheckpointError: (message) => log.error({ message }, "background WAL checkpoint failed"),
    });
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
    const runs = createRunRepo(handle.prisma, handle.sql);
    return {
      config,
      log,
      version,
      db: handle,
      role: "all",
      flows,
      runs,
      settings,
      auth: createAuthService({ db: handle, log }),
      services: svc,
      control: createRunControl({ flows, runs, services: svc }),
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
