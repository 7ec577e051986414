import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestAuth } from "../../auth";
import { HostError, invalidRequest, type Problem } from "../../errors/codes";
import type { Host } from "../../host";
import { answerError, closeAfterResponse, sendJson } from "../../http/respond";
import { HttpInputError, parseBody, readBody } from "../../triggers/webhook/body";
import { createContext } from "../context";
import { appRouter } from "../routers/app";
import { openApiDocument } from "./document";
import { restError } from "./errors";
import { invoke, type Operation, operations } from "./operations";

export const apiPrefix = "/api/v1";
export const defaultMaxBodyBytes = 5 * 1024 * 1024;

/** The document describes the API, not the data behind it: served to anyone, not a procedure. */
const documentPath = "/openapi.json";

async function readJsonBody(req: IncomingMessage, maxBodyBytes: number): Promise<unknown> {
  try {
    const raw = await readBody(req, maxBodyBytes);
    const value = parseBody(req, raw, "json");
    return value === null && raw.length === 0 ? undefined : value;
  } catch (e) {
    if (!(e instanceof HttpInputError)) throw e;
    if (e.status === 413) throw new HostError("payload_too_large", e.message);
    if (e.status === 415)
      throw new HostError(
        "unsupported_media_type",
        `send the body as application/json (got ${req.headers["content-type"] ?? "no content type"})`,
      );
    throw invalidRequest([{ path: "body", message: e.message }], "body");
  }
}

/**
 * The procedure's input, as trpc-to-openapi's document describes it: path parameters plus the query
 * (GET, DELETE) or the JSON body's fields (POST, PUT). A repeated query parameter is refused.
 */
function inputOf(op: Operation, params: Record<string, string>, query: URLSearchParams, body: unknown) {
  const problems: Problem[] = [];
  // No prototype: a `?__proto__=` parameter is a key like any other (and refused as unknown).
  let fields: Record<string, unknown> = Object.create(null);
  if (op.places.rest === "query") {
    for (const key of new Set(query.keys())) {
      if (query.getAll(key).length > 1)
        problems.push({ path: `query.${key}`, message: `'${key}' is given more than once` });
      else fields[key] = query.get(key);
    }
  } else {
    for (const key of new Set(query.keys()))
      problems.push({
        path: `query.${key}`,
        message: `unknown query parameter '${key}' (send it in the body)`,
      });
    if (body !== undefined && (typeof body !== "object" || body === null || Array.isArray(body)))
      problems.push({ path: "body", message: "expected a JSON object" });
    else fields = (body ?? {}) as Record<string, unknown>;
  }
  for (const key of op.places.params)
    if (Object.hasOwn(fields, key))
      problems.push({ path: `${op.places.rest}.${key}`, message: `'${key}' is given in the path` });
  if (problems.length) throw invalidRequest(problems);
  return { ...fields, ...params };
}

/** Path parameters of a matched operation, percent-decoded. */
function paramsOf(match: RegExpExecArray): Record<string, string> {
  const out: Record<string, string> = {};
  const problems: Problem[] = [];
  for (const [k, v] of Object.entries(match.groups ?? {})) {
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      problems.push({ path: `params.${k}`, message: "malformed percent-encoding" });
    }
  }
  if (problems.length) throw invalidRequest(problems);
  return out;
}

const unauthorized = "send a valid API key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'";

/**
 * `/api/v1/*` for the runtime's HTTP server (`start` and `worker`): the app router's REST procedures
 * (those with `openapi` meta). Routing (404, 405 with Allow) and credentials (401) come first, so a
 * stranger cannot make us read a body; then the body (415, 413 over `maxBodyBytes`, malformed JSON),
 * and the procedure with its own middlewares: scopes, role, same-origin, audit. Every error answers
 * with the one shape and the status of its code.
 */
export function createApiHandler(host: Host, opts: { maxBodyBytes?: number } = {}) {
  const maxBodyBytes = opts.maxBodyBytes ?? defaultMaxBodyBytes;

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = (req.method ?? "GET").toUpperCase();
    const path = url.pathname.slice(apiPrefix.length).replace(/(.)\/$/, "$1") || "/";
    const controller = new AbortController();
    res.once("close", () => controller.abort());
    let op: Operation | undefined;
    try {
      if (path === documentPath) {
        if (method === "GET") return sendJson(res, 200, await openApiDocument());
        return answerError(
          res,
          "method_not_allowed",
          `${method} is not allowed on ${url.pathname}; use GET`,
          undefined,
          {
            allow: "GET",
          },
        );
      }
      const candidates = operations.flatMap((o) => {
        const m = o.pattern.exec(path);
        return m ? [{ op: o, match: m }] : [];
      });
      if (candidates.length === 0) throw new HostError("not_found", `no API route ${method} ${url.pathname}`);
      const hit = candidates.find((c) => c.op.method === method);
      if (!hit) {
        const allow = candidates.map((c) => c.op.method).join(", ");
        return answerError(
          res,
          "method_not_allowed",
          `${method} is not allowed on ${url.pathname}; use ${allow}`,
          undefined,
          {
            allow,
          },
        );
      }
      op = hit.op;

      let auth: RequestAuth | null = null;
      if (op.protect) {
        auth = await host.auth.authenticateRequest(req.headers);
        if (!auth)
          return answerError(res, "unauthorized", unauthorized, undefined, {
            "www-authenticate": 'Bearer realm="switchyard"',
          });
      }
      // Authenticated before the body is read: strangers cannot make us buffer megabytes.
      const params = paramsOf(hit.match);
      const body = op.places.rest === "body" ? await readJsonBody(req, maxBodyBytes) : undefined;
      const input = inputOf(op, params, url.searchParams, body);
      const ctx = await createContext(host, req, new Headers(), { auth, signal: controller.signal });
      let output: unknown;
      try {
        output = await invoke(appRouter.createCaller(ctx), op, input);
      } catch (e) {
        // A write sent without its body: one problem says so, rather than one per missing field.
        const problems = restError(e, op.places).body.error.details?.problems;
        if (body === undefined && problems?.every((p) => p.path.startsWith("body")))
          throw invalidRequest([{ path: "body", message: "a JSON body is required" }], "body");
        throw e;
      }
      const status = typeof op.rest.status === "function" ? op.rest.status(output) : (op.rest.status ?? 200);
      if (!res.writableEnded && !res.destroyed) sendJson(res, status, output);
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const answer = restError(e, op?.places ?? { params: [], rest: "query" });
      if (answer.code === "internal")
        host.log.error({ err: e, method, url: url.pathname }, "API request failed");
      if (answer.code === "payload_too_large") closeAfterResponse(req, res);
      sendJson(res, answer.status, answer.body);
    }
  };
}
