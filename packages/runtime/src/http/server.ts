import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Host } from "../host";
import { sendError } from "./respond";

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface Routes {
  /** `/hooks/*` and `/hooks-test/*`: straight to the runtime, no framework on the hot path. */
  hooks?: RequestHandler;
  /** `/api/v1/*`: the REST API, framework-free like the hooks. */
  api?: RequestHandler;
  /** Everything else (UI, tRPC, REST): the web app. */
  web?: RequestHandler;
}

/** One port for everything. */
export function createHttpServer(host: Host, routes: Routes): Server {
  const server = createServer((req, res) => {
    // Client addresses feed sign-in throttling: only a trusted reverse proxy may name them.
    if (!host.config.trustProxy) {
      req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
      delete req.headers["x-real-ip"];
    }
    const url = req.url ?? "/";
    const handler = url.startsWith("/hooks/") || url.startsWith("/hooks-test/") ? routes.hooks : /^\/api\/v1(\/|\?|$)/.test(url) ? routes.api : routes.web;
    if (!handler) {
      sendError(res, 404, "not_found", `no route for ${req.method} ${url.split("?")[0]}`);
      return;
    }
    Promise.resolve(handler(req, res)).catch((err: unknown) => {
      host.log.error({ err, url }, "request handler crashed");
      if (!res.headersSent) sendError(res, 500, "internal", "internal error");
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

export function listen(server: Server, port: number, host: string): Promise<{ port: number }> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const addr = server.address();
      resolve({ port: typeof addr === "object" && addr ? addr.port : port });
    });
  });
}
