import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { RequestAuth } from "../auth/service";
import type { Host } from "../host";
import { closeAfterResponse, sendError, sendJson } from "../http/respond";
import { HttpInputError, parseBody, readBody } from "../triggers/webhook/body";
import { type ApiProblem, ApiError, invalidRequest, toApiError, zodProblems } from "./errors";
import type { Route } from "./route";

export const apiPrefix = "/api/v1";
export const defaultMaxBodyBytes = 5 * 1024 * 1024;

interface Compiled {
  route: Route;
  pattern: RegExp;
}

/** `/flows/{id}/runs` → a regex with one named group per parameter. */
function compile(route: Route): Compiled {
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, "(?<$1>[^/]+)");
  return { route, pattern: new RegExp(`^${source}/?$`) };
}

/** Unknown query parameters are refused: a typo like `?flowid=` must not silently list everything. */
function queryProblems(schema: z.ZodType | undefined, params: URLSearchParams): ApiProblem[] {
  const known = schema instanceof z.ZodObject ? new Set(Object.keys(schema.shape)) : new Set<string>();
  const problems: ApiProblem[] = [];
  for (const key of new Set(params.keys())) {
    if (!known.has(key)) problems.push({ path: `query.${key}`, message: `unknown query parameter '${key}'` });
    else if (params.getAll(key).length > 1)
      problems.push({ path: `query.${key}`, message: `'${key}' is given more than once` });
  }
  return problems;
}

function parseWith(
  schema: z.ZodType | undefined,
  value: unknown,
  where: string,
  problems: ApiProblem[],
): unknown {
  if (!schema) return undefined;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  problems.push(...zodProblems(r.error, where));
  return undefined;
}

/**
 * Params, query and body through the route's schemas, every problem collected with its path. Shared by
 * the HTTP router and in-process calls (the CLI on a local data dir), so both refuse the same input.
 */
export function parseRouteInput(
  route: Route,
  raw: { params: Record<string, string>; query: URLSearchParams; body: unknown },
  problems: ApiProblem[] = [],
): { params: unknown; query: unknown; body: unknown } {
  const params = parseWith(route.params, raw.params, "params", problems);
  problems.push(...queryProblems(route.query, raw.query));
  const query = parseWith(route.query, Object.fromEntries(raw.query), "query", problems);
  const body =
    route.body && (raw.body !== undefined || route.bodyRequired)
      ? parseWith(route.body, raw.body, "body", problems)
      : undefined;
  if (problems.length) throw invalidRequest(problems);
  return { params, query, body };
}

/** Scope for reads and writes; writes also need an account that may change things (not a viewer). */
function authorise(route: Route, auth: RequestAuth, req: IncomingMessage, host: Host): void {
  const scope = route.access === "read" ? "read" : "write";
  if (!auth.scopes.includes(scope)) throw new ApiError("forbidden", `this API key lacks the ${scope} scope`);
  if (scope === "write" && auth.user.role === "viewer")
    throw new ApiError("forbidden", "viewers can read but not change anything");
  // A browser session carries its cookie to any site's requests; only our own pages may write with it.
  if (scope === "write" && auth.via === "session" && !host.auth.http.isSameOrigin(req.headers, host.config)) {
    throw new ApiError("forbidden", "cross-site request refused");
  }
}

/** What a write touched: the run or item it made, else the flow or run in the path. */
function auditTarget(params: unknown, body: unknown): string | null {
  const b = (body ?? {}) as { runId?: unknown; id?: unknown; flow?: { id?: unknown } };
  const candidate = b.runId ?? b.flow?.id ?? b.id ?? (params as { id?: unknown } | undefined)?.id;
  return typeof candidate === "string" ? candidate : null;
}

/** Every successful write through the API lands in the audit log under the key's (or session's) user, as tRPC writes do. */
async function auditWrite(host: Host, route: Route, auth: RequestAuth, params: unknown, body: unknown) {
  const target = auditTarget(params, body);
  const inPath = (params as { id?: unknown } | undefined)?.id;
  await host.auth.audit(auth.user.id, route.audit ?? `api.${route.operationId}`, target, {
    via: "api",
    operation: route.operationId,
    ...(auth.apiKeyId ? { apiKeyId: auth.apiKeyId } : { session: true }),
    ...(typeof inPath === "string" && inPath !== target ? { of: inPath } : {}),
  });
}

async function readJsonBody(req: IncomingMessage, route: Route, maxBodyBytes: number): Promise<unknown> {
  try {
    const raw = await readBody(req, maxBodyBytes);
    const value = parseBody(req, raw, "json");
    if (value === null && raw.length === 0 && route.bodyRequired) {
      throw invalidRequest([{ path: "body", message: "a JSON body is required" }], "body");
    }
    return value === null && raw.length === 0 ? undefined : value;
  } catch (e) {
    if (e instanceof HttpInputError) {
      if (e.status === 413) throw new ApiError("payload_too_large", e.message);
      if (e.status === 415)
        throw new ApiError(
          "unsupported_media_type",
          `send the body as application/json (got ${req.headers["content-type"] ?? "no content type"})`,
        );
      throw invalidRequest([{ path: "body", message: e.message }], "body");
    }
    throw e;
  }
}

/**
 * The `/api/v1/*` handler: plain node:http, like the webhook handler. Matching, authentication,
 * input parsing and error shapes live here; the routes only hold their own logic.
 */
export function createApiRouter(host: Host, routes: readonly Route[], opts: { maxBodyBytes?: number } = {}) {
  const compiled = routes.map(compile);
  const maxBodyBytes = opts.maxBodyBytes ?? defaultMaxBodyBytes;

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = (req.method ?? "GET").toUpperCase();
    const path = url.pathname.slice(apiPrefix.length) || "/";
    const controller = new AbortController();
    res.once("close", () => controller.abort());
    try {
      const candidates = compiled.flatMap((c) => {
        const m = c.pattern.exec(path);
        return m ? [{ route: c.route, groups: m.groups ?? {} }] : [];
      });
      if (candidates.length === 0) throw new ApiError("not_found", `no API route ${method} ${url.pathname}`);
      const hit = candidates.find((c) => c.route.method === method);
      if (!hit) {
        const allow = candidates.map((c) => c.route.method).join(", ");
        sendJson(
          res,
          405,
          {
            error: {
              code: "method_not_allowed",
              message: `${method} is not allowed on ${url.pathname}; use ${allow}`,
            },
          },
          { allow },
        );
        return;
      }
      const { route } = hit;

      let auth: RequestAuth | null = null;
      if (route.access !== "public") {
        auth = await host.auth.authenticateRequest(req.headers);
        if (!auth) {
          sendJson(
            res,
            401,
            {
              error: {
                code: "unauthorized",
                message: "send a valid API key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'",
              },
            },
            { "www-authenticate": 'Bearer realm="switchyard"' },
          );
          return;
        }
        authorise(route, auth, req, host);
      }

      // Authenticated before the body is read: strangers cannot make us buffer megabytes.
      const problems: ApiProblem[] = [];
      const rawParams: Record<string, string> = {};
      for (const [k, v] of Object.entries(hit.groups)) {
        try {
          rawParams[k] = decodeURIComponent(v);
        } catch {
          problems.push({ path: `params.${k}`, message: "malformed percent-encoding" });
        }
      }
      const rawBody = route.body ? await readJsonBody(req, route, maxBodyBytes) : undefined;
      const input = parseRouteInput(
        route,
        { params: rawParams, query: url.searchParams, body: rawBody },
        problems,
      );
      const reply = await route.handler({ host, ...input, auth, signal: controller.signal });
      if (route.access === "write" && auth) await auditWrite(host, route, auth, input.params, reply.body);
      if (!res.writableEnded && !res.destroyed) sendJson(res, reply.status, reply.body);
    } catch (e) {
      const apiError = toApiError(e);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (apiError) {
        if (apiError.code === "payload_too_large") closeAfterResponse(req, res);
        sendError(res, apiError.status, apiError.code, apiError.message, apiError.details);
        return;
      }
      host.log.error({ err: e, method, url: url.pathname }, "API request failed");
      sendError(res, 500, "internal", "internal error; the server log has the details");
    }
  };
}
