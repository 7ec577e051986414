import path from "node:path";
import {
  applyMigrations,
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
import type { CatalogueEntry } from "@switchyard/contracts/catalogue";
import type { HostExtensions } from "./triggers/registry";
import { version } from "./version";

export interface Host {
  config: Config;
  log: Logger;
  version: string;
  db: DatabaseHandle;
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
  /** Cheap liveness check of the database for /api/health. */
  dbHealth(): "ok" | "error";
  /** Starts the worker and binds the triggers of active flows. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Locks the data dir, migrates, seeds on first start, builds the services. Nothing touches the data dir
 * before the lock. `nodeTypes` and `triggerListeners` add types beyond the shipped ones.
 */
export async function createHost(
  config: Config,
  log: Logger,
  opts: { seed?: boolean } & HostExtensions = {},
): Promise<Host> {
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
    services = svc;
    let started = false;
    const runs = createRunRepo(handle.prisma, handle.sql);
    return {
      config,
      log,
      version,
      db: handle,
      flows,
      runs,
      settings,
      auth: createAuthService({ db: handle, log }),
      services: svc,
      control: createRunControl({ flows, runs, services: svc }),
      catalogue: () => svc.types.catalogue(),
      dbHealth() {
        try {
          handle.sql.prepare("SELECT 1").get();
          return "ok";
        } catch {
          return "error";
        }
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
