import { lazyApiHandler } from "../trpc/rest/lazy";
import type { Config } from "../config";
import { createHost } from "../host";
import { codeOrigin } from "../version";
import { createHttpServer, listen } from "../http/server";
import type { Logger } from "../logger";

/**
 * `switchyard worker`. On scale-out (PostgreSQL + Redis) it executes queued runs and nothing else, and any
 * number of them may run. On SQLite it is the single process without the web app: runs, triggers,
 * `/hooks/*` and `/api/v1` (headless servers, tests).
 */
export async function workerCommand(config: Config, log: Logger): Promise<void> {
  if (config.scale) return queueWorker(config, log);
  const host = await createHost(config, log);
  await host.start();
  const api = lazyApiHandler(host);
  const server = createHttpServer(host, { hooks: host.services.webhookHandler, api: api.handle });
  const { port } = await listen(server, config.port, config.host);
  api.warm();
  log.info({ port, dataDir: config.dataDir }, "worker is up");
  console.log(`Switchyard worker ${host.version} listening on ${config.host}:${port} (${codeOrigin})`);
  const stop = async () => {
    server.close();
    server.closeAllConnections();
    await host.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

async function queueWorker(config: Config, log: Logger): Promise<void> {
  const host = await createHost(config, log, { role: "worker" });
  await host.start();
  log.info({ role: "worker", concurrency: config.workerConcurrency }, "worker is up");
  console.log(
    `Switchyard worker ${host.version} executing up to ${config.workerConcurrency} runs at once (${codeOrigin})`,
  );
  let stopping = false;
  // SIGTERM finishes the runs in progress (their outcomes are recorded) before exiting.
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await host.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}
