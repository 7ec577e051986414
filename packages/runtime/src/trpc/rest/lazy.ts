import type { IncomingMessage, ServerResponse } from "node:http";
import type { Host } from "../../host";

/**
 * `/api/v1` loaded on first use (or by `warm`, once the server listens): the app router and the
 * OpenAPI generator are ≈ 1.5 s of module loading from source that a webhook-serving process should not
 * wait for before it listens.
 */
export function lazyApiHandler(host: Host) {
  let handler: Promise<(req: IncomingMessage, res: ServerResponse) => Promise<void>> | undefined;
  const load = () => {
    handler ??= import("./handler").then((m) => m.createApiHandler(host));
    return handler;
  };
  return {
    handle: async (req: IncomingMessage, res: ServerResponse) => (await load())(req, res),
    warm: () => void load(),
  };
}
