import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RequestHandler } from "./http/server";

export const defaultWebDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../apps/web");

/**
 * Loads the built Next.js app from its own folder (resolving `next` from there), so the runtime
 * doesn't depend on the web app's packages and a worker-only process never loads React.
 */
export async function loadWebApp(opts: {
  dir: string;
  hostname: string;
  port: number;
}): Promise<RequestHandler> {
  if (!existsSync(path.join(opts.dir, ".next", "BUILD_ID"))) {
    throw new Error(
      `the web app in ${opts.dir} is not built; run \`npm start\` (it builds) or \`pnpm --filter @switchyard/web build\``,
    );
  }
  const require = createRequire(path.join(opts.dir, "package.json"));
  const next = require("next") as (o: object) => {
    prepare(): Promise<void>;
    getRequestHandler(): RequestHandler;
  };
  const app = next({ dir: opts.dir, dev: false, hostname: opts.hostname, port: opts.port });
  await app.prepare();
  return app.getRequestHandler();
}
