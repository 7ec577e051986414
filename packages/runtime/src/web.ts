import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RequestHandler } from "./http/server";
import { answerError } from "./http/respond";
import type { Logger } from "./logger";

export const defaultWebDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../apps/web");

export interface WebAppOptions {
  dir: string;
  hostname: string;
  port: number;
}

function assertBuilt(dir: string): void {
  if (!existsSync(path.join(dir, ".next", "BUILD_ID")))
    throw new Error(
      `the web app in ${dir} is not built; run \`npm start\` (it builds) or \`pnpm --filter @switchyard/web build\``,
    );
}

/**
 * The web app's handler, loaded on the first request that needs it (a page, tRPC, the UI's routes). Next.js
 * and React cost ~45 MB of heap and start-up time, and a process that only serves webhooks, the REST API
 * and triggers never needs them: until someone opens the UI, `switchyard start` runs as lean as a worker.
 * A missing build is still refused at start; a load that fails answers 500 and is retried on the next request.
 */
export function lazyWebApp(opts: WebAppOptions, log: Logger): RequestHandler {
  assertBuilt(opts.dir);
  let loading: Promise<RequestHandler> | undefined;
  return async (req, res) => {
    if (!loading) {
      log.info("loading the web app (first UI request)");
      loading = loadWebApp(opts);
    }
    let handler: RequestHandler;
    try {
      handler = await loading;
    } catch (err) {
      loading = undefined;
      log.error({ err }, "the web app failed to load");
      answerError(res, "internal", `the web app failed to load: ${(err as Error).message}`);
      return;
    }
    await handler(req, res);
  };
}

/**
 * Loads the built Next.js app from its own folder (resolving `next` from there), so the runtime
 * doesn't depend on the web app's packages and a worker-only process never loads React.
 */
export async function loadWebApp(opts: WebAppOptions): Promise<RequestHandler> {
  assertBuilt(opts.dir);
  const require = createRequire(path.join(opts.dir, "package.json"));
  const next = require("next") as (o: object) => {
    prepare(): Promise<void>;
    getRequestHandler(): RequestHandler;
  };
  const app = next({ dir: opts.dir, dev: false, hostname: opts.hostname, port: opts.port });
  await app.prepare();
  return app.getRequestHandler();
}
