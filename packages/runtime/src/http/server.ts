import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { hostRefusal, isAllowedHost, requestHost } from "../auth/hosts";
import { credentialsOf } from "../auth/request";
import type { Config } from "../config";
import type { ErrorCode } from "../errors/codes";
import type { Host } from "../host";
import { answerError, closeAfterResponse } from "./respond";

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface Routes {
  /** `/hooks/*` and `/hooks-test/*`: straight to the runtime, no framework on the hot path. */
  hooks?: RequestHandler;
  /** `/api/v1/*`: the REST API, the app router's REST procedures without Next (also in `worker`). */
  api?: RequestHandler;
  /** Everything else (UI, tRPC): the web app. */
  web?: RequestHandler;
}

/**
 * Whether a browser-facing request names a host we answer to (DNS rebinding, see auth/hosts.ts).
 * Exempt: API-key requests (a key is sent on purpose, never ambiently by a browser; a bogus key next to
 * a cookie still meets the same-origin check, which tests the host too), and the health check.
 * `/hooks/*` never reach here: webhooks are public by design and carry no ambient credential.
 */
function hostRefused(req: IncomingMessage, config: Config): string | null {
  if (/^\/api\/health(\/|\?|$)/.test(req.url ?? "/") || credentialsOf(req.headers).apiKey) return null;
  const name = requestHost(req.headers, config);
  return isAllowedHost(name, config) ? null : hostRefusal(name);
}

/** tRPC reads a whole body into memory, sign-in anonymously too. */
export const trpcMaxBodyBytes = 5 * 1024 * 1024;
/** A memory import's multipart upload: the 50 MB file plus room for the form's other parts. */
export const importMaxBodyBytes = 50 * 1024 * 1024 + 64 * 1024;

/**
 * Refuses a body sent to the web app over its limit from its Content-Length, before Next.js buffers it;
 * Node's parser never delivers more bytes than that. A chunked body has no length to check, so it is
 * refused too (browsers and the tRPC client always send one). Every web route is covered: the memory
 * import has the larger limit, everything else (tRPC, pages) the tRPC one.
 */
function webBodyRefused(req: IncomingMessage): [ErrorCode, string] | null {
  const isImport = /^\/api\/memory\/import(\/|\?|$)/.test(req.url ?? "/");
  const [limit, label] = isImport ? [importMaxBodyBytes, "50 MB"] : [trpcMaxBodyBytes, "5 MB"];
  const length = req.headers["content-length"];
  if (length === undefined && req.headers["transfer-encoding"] !== undefined)
    return ["length_required", `send the request body with a Content-Length (at most ${label})`];
  if (Number(length) > limit) return ["payload_too_large", `the request body is larger than ${label}`];
  return null;
}

/** One port for everything. */
export function createHttpServer(host: Host, routes: Routes): Server {
  const server = createServer((req, res) => {
    // Client addresses feed sign-in throttling, the forwarded host and scheme the host check and cookie flags:
    // only a trusted reverse proxy may name them.
    if (!host.config.trustProxy) {
      req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
      delete req.headers["x-real-ip"];
      delete req.headers["x-forwarded-host"];
      delete req.headers["x-forwarded-proto"];
    } else if (!req.headers["x-forwarded-for"]) {
      // A proxy that names no client must not make every browser look local (setup needs no token there).
      req.headers["x-forwarded-for"] = "unknown";
    }
    const url = req.url ?? "/";
    if (/^\/api\/health(\/|\?|$)/.test(url)) {
      // Answered here, for every role and with or without the web app: load balancers probe each process.
      void host.health().then(
        (h) => {
          res.writeHead(h.status === "ok" ? 200 : 503, { "content-type": "application/json" });
          res.end(JSON.stringify(h));
        },
        () => answerError(res, "internal", "health check failed"),
      );
      return;
    }
    const kind: keyof Routes =
      url.startsWith("/hooks/") || url.startsWith("/hooks-test/")
        ? "hooks"
        : /^\/api\/v1(\/|\?|$)/.test(url)
          ? "api"
          : "web";
    const handler = routes[kind];
    if (!handler) {
      answerError(res, "not_found", `no route for ${req.method} ${url.split("?")[0]}`);
      return;
    }
    const refused = kind === "hooks" ? null : hostRefused(req, host.config);
    if (refused) {
      answerError(res, "host_not_allowed", refused);
      return;
    }
    const tooLarge = kind === "web" ? webBodyRefused(req) : null;
    if (tooLarge) {
      closeAfterResponse(req, res);
      answerError(res, ...tooLarge);
      return;
    }
    Promise.resolve(handler(req, res)).catch((err: unknown) => {
      host.log.error({ err, url }, "request handler crashed");
      if (!res.headersSent) answerError(res, "internal", "internal error");
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

/** Why the server could not listen, in one line naming the variable to change (no stack trace at start). */
export class ListenError extends Error {
  override name = "ListenError";
}

function listenProblem(e: NodeJS.ErrnoException, port: number, host: string): Error {
  if (e.code === "EADDRINUSE")
    return new ListenError(`port ${port} on ${host} is already in use: stop what listens there or set PORT`);
  if (e.code === "EACCES")
    return new ListenError(
      `port ${port} on ${host} needs privileges this process lacks: set PORT above 1023`,
    );
  if (["ENOTFOUND", "EAI_AGAIN", "EADDRNOTAVAIL"].includes(e.code ?? ""))
    return new ListenError(
      `HOST ${host} is not an address of this machine (${e.code}): use e.g. 127.0.0.1, or 0.0.0.0 for every interface`,
    );
  return e;
}

export function listen(server: Server, port: number, host: string): Promise<{ port: number }> {
  return new Promise((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException) => reject(listenProblem(e, port, host));
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      const addr = server.address();
      resolve({ port: typeof addr === "object" && addr ? addr.port : port });
    });
  });
}
