import type { Config } from "../config";
import { createHost } from "../host";
import * as trpcPackage from "../trpc";
import { setCurrentHost, setSharedPackages } from "../host-registry";
import { createHttpServer, listen } from "../http/server";
import type { Logger } from "../logger";
import { lazyApiHandler } from "../trpc/rest/lazy";
import { codeOrigin } from "../version";
import { defaultWebDir, lazyWebApp } from "../web";
import { UsageError } from "./io";

/**
 * `switchyard web` (scale-out): the UI, the API, webhooks, SMTP ingress and cron. It admits runs and
 * queues them; `switchyard worker` processes execute them. `--no-ui` leaves the Next.js app out.
 */
export async function webCommand(config: Config, log: Logger, opts: { ui: boolean }): Promise<void> {
  if (!config.scale)
    throw new UsageError(
      "switchyard web needs SWITCHYARD_DATABASE_URL and SWITCHYARD_REDIS_URL (one process on SQLite: switchyard start)",
    );
  const host = await createHost(config, log, { role: "web" });
  setCurrentHost(host);
  setSharedPackages({ trpc: trpcPackage });
  try {
    await host.start();
    const web = opts.ui
      ? lazyWebApp({ dir: config.webDir ?? defaultWebDir, hostname: config.host, port: config.port }, log)
      : undefined;
    const api = lazyApiHandler(host);
    const server = createHttpServer(host, {
      ...(web ? { web } : {}),
      hooks: host.services.webhookHandler,
      api: api.handle,
    });
    const { port } = await listen(server, config.port, config.host);
    api.warm();
    log.info({ port, role: "web", ui: opts.ui }, "web is up");
    console.log(`Switchyard web ${host.version} listening on ${config.host}:${port} (${codeOrigin})`);
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      server.close();
      server.closeAllConnections();
      await host.close();
      process.exit(0);
    };
    process.on("SIGINT", () => void stop());
    process.on("SIGTERM", () => void stop());
  } catch (e) {
    await host.close();
    throw e;
  }
}
