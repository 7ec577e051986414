import { lazyApiHandler } from "../trpc/rest/lazy";
import type { Config } from "../config";
import { createHost } from "../host";
import * as trpcPackage from "../trpc";
import { setCurrentHost, setSharedPackages } from "../host-registry";
import { createHttpServer, listen } from "../http/server";
import type { Logger } from "../logger";
import { codeOrigin } from "../version";
import { defaultWebDir, lazyWebApp } from "../web";

/** `switchyard start`: web app + runtime in one process on one port. */
export async function startCommand(config: Config, log: Logger): Promise<void> {
  const host = await createHost(config, log);
  setCurrentHost(host);
  setSharedPackages({ trpc: trpcPackage });
  try {
    await host.start();
    const web = lazyWebApp(
      { dir: config.webDir ?? defaultWebDir, hostname: config.host, port: config.port },
      log,
    );
    const api = lazyApiHandler(host);
    const server = createHttpServer(host, {
      web,
      hooks: host.services.webhookHandler,
      api: api.handle,
    });
    const { port } = await listen(server, config.port, config.host);
    api.warm();
    log.info(
      { url: `http://${config.host}:${port}`, dataDir: config.dataDir, version: host.version },
      "Switchyard is up",
    );
    const shownUrl = config.baseUrl.replace(`:${config.port}`, `:${port}`);
    console.log(`Switchyard ${host.version} is running at ${shownUrl} (${codeOrigin})`);
    // The banner is the token's only copy outside memory (never the structured log): as Jupyter does.
    const setupToken = await host.auth.pendingSetupToken();
    if (setupToken)
      console.log(
        `No owner account yet. To create it, open ${shownUrl}/setup?token=${setupToken}\n` +
          `(a browser on this machine can open http://localhost:${port}/setup without the token)`,
      );

    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, "shutting down");
      server.close();
      server.closeAllConnections();
      await host.close();
      process.exit(0);
    };
    process.on("SIGINT", () => void stop("SIGINT"));
    process.on("SIGTERM", () => void stop("SIGTERM"));
  } catch (e) {
    await host.close();
    throw e;
  }
}
