import { invokeRoute, type RouteAnswer, type RouteInput } from "../api/invoke";
import { apiRoutes } from "../api/routes";
import type { Config } from "../config";
import { DataDirLockedError } from "../data-dir-lock";
import { createHost, type Host } from "../host";
import type { Logger } from "../logger";
import { CliError, UsageError } from "./io";

/** The answer of the REST API when it refused: printed as its message plus one line per problem. */
export class CliApiError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    problems: { path: string; message: string }[] = [],
  ) {
    super(
      message,
      problems.map((p) => `  ${p.path || "(flow)"}: ${p.message}`),
    );
  }
}

/**
 * Where client commands send their requests: the REST API of a server (`--url` + `--api-key`), or
 * the same routes in-process on the local data dir. Both give the same JSON.
 */
export interface Backend {
  mode: "local" | "remote";
  /** Calls a route by operationId; the body of a 2xx answer, else a CliApiError. */
  call(operationId: string, input?: RouteInput): Promise<RouteAnswer>;
  /** The host of the local data dir; refused in remote mode (for commands that only work locally). */
  host(what: string): Promise<Host>;
  /** Local mode: executes queued runs in this process until `close` (needed to wait for a run). */
  runWorker(): Promise<void>;
  close(): Promise<void>;
}

export interface Target {
  url?: string;
  apiKey?: string;
}

function failed(answer: RouteAnswer): never {
  const err = (
    answer.body as {
      error?: {
        code?: string;
        message?: string;
        details?: { problems?: { path: string; message: string }[] };
      };
    }
  )?.error;
  throw new CliApiError(
    answer.status,
    err?.code ?? "http_error",
    err?.message ?? `the server answered ${answer.status}`,
    err?.details?.problems,
  );
}

function remoteBackend(url: string, apiKey: string): Backend {
  return {
    mode: "remote",
    async call(operationId, input = {}) {
      const route = apiRoutes.find((r) => r.operationId === operationId)!;
      const path = route.path.replace(/\{(\w+)\}/g, (_, k: string) =>
        encodeURIComponent(input.params?.[k] ?? ""),
      );
      const query = new URLSearchParams(
        Object.entries(input.query ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
      );
      const target = `${url}/api/v1${path}${query.size ? `?${query}` : ""}`;
      let res: Response;
      try {
        res = await fetch(target, {
          method: route.method,
          headers: {
            authorization: `Bearer ${apiKey}`,
            ...(input.body !== undefined ? { "content-type": "application/json" } : {}),
          },
          body: input.body !== undefined ? JSON.stringify(input.body) : undefined,
        });
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        throw new CliError(
          `cannot reach the server at ${url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`,
        );
      }
      const text = await res.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        throw new CliError(
          `${url} did not answer with JSON (status ${res.status}); is it a Switchyard server?`,
        );
      }
      const answer = { status: res.status, body };
      return res.ok ? answer : failed(answer);
    },
    async host(what) {
      throw new CliError(
        `${what} works on the local data dir only; run it on the server's machine without --url (and SWITCHYARD_URL)`,
      );
    },
    async runWorker() {},
    async close() {},
  };
}

export function localBackend(config: Config, log: Logger): Backend {
  let opened: Promise<Host> | undefined;
  let worker = false;
  const open = () => {
    // Seeded like `start` would on a fresh data dir: runs executed here get the default policy ceilings.
    opened ??= createHost(config, log).catch((e: unknown) => {
      if (e instanceof DataDirLockedError) {
        throw new CliError(e.message, [
          "  A running server holds the data dir; talk to it instead:",
          "  switchyard <command> --url http://HOST:PORT --api-key KEY   (or set SWITCHYARD_URL and SWITCHYARD_API_KEY)",
        ]);
      }
      throw e;
    });
    return opened;
  };
  return {
    mode: "local",
    async call(operationId, input) {
      const answer = await invokeRoute(await open(), operationId, input);
      return answer.status < 400 ? answer : failed(answer);
    },
    host: () => open(),
    async runWorker() {
      const host = await open();
      if (!worker) host.services.worker.start();
      worker = true;
    },
    async close() {
      if (!opened) return;
      const host = await opened;
      if (worker) await host.services.worker.stop();
      await host.close();
    },
  };
}

/** `--url`/`--api-key` win over SWITCHYARD_URL/SWITCHYARD_API_KEY; neither means the local data dir. */
export function openBackend(config: Config, log: Logger, target: Target): Backend {
  const url = (target.url ?? config.remote.url)?.replace(/\/$/, "");
  const apiKey = target.apiKey ?? config.remote.apiKey;
  if (target.url !== undefined && !/^https?:\/\/[^/]/.test(target.url))
    throw new UsageError(`--url must be an http(s) URL, got '${target.url}'`);
  if (url && !apiKey)
    throw new UsageError("--url needs an API key: pass --api-key KEY or set SWITCHYARD_API_KEY");
  if (!url && target.apiKey) throw new UsageError("--api-key needs --url (or SWITCHYARD_URL)");
  return url && apiKey ? remoteBackend(url, apiKey) : localBackend(config, log);
}
