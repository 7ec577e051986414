import { mkdirSync } from "node:fs";
import { createFlowRepo, createRunRepo, createSettingsRepo } from "@switchyard/db";
import { applyPostgresMigrations, openPostgres, type PostgresHandle } from "@switchyard/db/postgres";
import { createAuthService } from "../auth/service";
import type { Config } from "../config";
import { makePrivateFile } from "../data-dir-lock";
import type { Host } from "../host";
import type { Logger } from "../logger";
import { createRunControl } from "../runs/control";
import { seedFirstStart } from "../seed";
import { createServices, type Services } from "../services";
import type { HostExtensions } from "../triggers/registry";
import { version } from "../version";
import type { HostRole } from "./pg-parts";
import { checkScaleServices } from "./startup-checks";

/**
 * The scale-out host: PostgreSQL + Redis, shared by any number of processes. Both must answer before
 * anything is written; migrations run under an advisory lock; there is no data-dir lock (the data dir holds
 * only the key file, memory and attachments, which several processes may share).
 */
export async function createScaleHost(
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
    const runs = createRunRepo(handle.prisma, "postgres");
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
      runs,
      settings,
      auth: createAuthService({ db: handle, log }),
      services: svc,
      control: createRunControl({ flows, runs, services: svc }),
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
