import type { RequestAuth } from "../auth";
import type { Config } from "../config";
import { DataDirLockedError } from "../data-dir-lock";
import { createHost, type Host } from "../host";
import type { Logger } from "../logger";
import { createContext } from "../trpc/context";
import { restError } from "../trpc/rest/errors";
import { invoke, operationById } from "../trpc/rest/operations";
import { appRouter } from "../trpc/routers/app";
import { CliError, localOnly, refuseRemote, UsageError } from "./io";

/** A REST request as the CLI builds it: path parameters, the query (GET, DELETE) or the JSON body (POST, PUT). */
export interface RouteInput {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

/** The answer of a REST operation: the status and JSON body an HTTP client gets. */
export interface RouteAnswer {
  status: number;
  body: unknown;
}

const definedQuery = (query: RouteInput["query"] = {}) =>
  Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));

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
 * the same procedures in-process on the local data dir. Both give the same JSON.
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
      const op = operationById(operationId);
      const path = op.path.replace(/\{(\w+)\}/g, (_, k: string) =>
        encodeURIComponent(input.params?.[k] ?? ""),
      );
      const query = new URLSearchParams(definedQuery(input.query));
      const target = `${url}/api/v1${path}${query.size ? `?${query}` : ""}`;
      let res: Response;
      try {
        res = await fetch(target, {
          method: op.method,
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
      throw localOnly(what);
    },
    async runWorker() {},
    async close() {},
  };
}

/**
 * Whoever can open the data dir controls everything in it: the CLI acts as its owner (the first owner
 * account, or one named `local` before anyone set up the instance). Audit rows say `via: "cli"`.
 */
async function localAuth(host: Host): Promise<RequestAuth> {
  const owner = (await host.auth.listUsers()).find((u) => u.role === "owner");
  const user = owner ?? {
    id: "local",
    email: "",
    name: "local CLI",
    role: "owner" as const,
    createdAt: new Date(),
  };
  return { user, via: "local", scopes: ["read", "write"] };
}

/** One REST operation in-process: the same procedure, middlewares and error answers as over HTTP. */
async function callLocal(host: Host, operationId: string, input: RouteInput): Promise<RouteAnswer> {
  const op = operationById(operationId);
  const fields = op.places.rest === "query" ? definedQuery(input.query) : (input.body ?? {});
  const ctx = await createContext(host, { headers: {} }, new Headers(), { auth: await localAuth(host) });
  try {
    const output = await invoke(appRouter.createCaller({ ...ctx, sameOrigin: true }), op, {
      ...(fields as object),
      ...input.params,
    });
    const status = typeof op.rest.status === "function" ? op.rest.status(output) : (op.rest.status ?? 200);
    // Through JSON, so dates and undefined fields come out exactly as they would over HTTP.
    return { status, body: JSON.parse(JSON.stringify(output)) };
  } catch (e) {
    const answer = restError(e, op.places);
    if (answer.code === "internal") throw e;
    return { status: answer.status, body: answer.body };
  }
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
    async call(operationId, input = {}) {
      const answer = await callLocal(await open(), operationId, input);
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

/** The data dir, for a command that only works there (see refuseRemote). */
export function localOnlyBackend(config: Config, log: Logger, what: string): Backend {
  refuseRemote(config, what);
  return localBackend(config, log);
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
