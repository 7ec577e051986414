import { lazyApiHandler } from "../trpc/rest/lazy";
import type { Config } from "../config";
import { createHost } from "../host";
import { codeOrigin } from "../version";
import { createHttpServer, listen } from "../http/server";
import type { Logger } from "../logger";

/** `switchyard worker`: runs, triggers and `/hooks/*` without the web app (headless servers, scale-out, tests). */
export async function workerCommand(config: Config, log: Logger): Promise<void> {
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
