import type { IncomingMessage, ServerResponse } from "node:http";
import { responseHeaderAllowed, responseStatusAllowed } from "@switchyard/nodes";
import { statusOf } from "../../errors/codes";
import { answerError, closeAfterResponse, sendJson } from "../../http/respond";
import { checkAuthBeforeBody, checkSignature, type ResolvedWebhookAuth } from "./auth";
import { HttpInputError, pairsToRecord, parseBody, readBody, setOwn } from "./body";
import { createRateLimiter } from "./rate-limit";
import type { HookBinding, HookRegistry } from "./registry";

export interface WebhookResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface WebhookDeps {
  production: HookRegistry;
  /** Paths the editor is listening on for a test event (one-shot). */
  test: HookRegistry;
  resolveAuth(binding: HookBinding): Promise<ResolvedWebhookAuth>;
  /** Durable admission; resolves after COMMIT. `duplicateOf` is set when the idempotency key was seen. */
  admit(
    binding: HookBinding,
    payloadJson: string,
    idempotencyKey?: string,
  ): Promise<{ runId: string; duplicate: boolean }>;
  /** Resolves with the run's response (webhook.respond or last node), or undefined on timeout. */
  waitForResponse(runId: string, timeoutMs: number): Promise<WebhookResponse | undefined>;
  /**
   * Runs a sync flow of pure, quick nodes to its end and records it (see runs/inline-runs.ts); undefined
   * when the flow must go through the queue.
   */
  runInline?(
    binding: HookBinding,
    payload: unknown,
    payloadJson: string,
  ): Promise<{ runId: string; response: WebhookResponse } | undefined>;
  /** Hands a test event to the editor waiting for it. */
  deliverTestEvent(binding: HookBinding, payload: unknown): void;
  now(): number;
}

// Headers that carry credentials or signatures are masked before the payload is stored or traced:
// a stored signature is a replayable proof of a request.
const maskedHeaders = new Set([
  "authorization",
  "cookie",
  "proxy-authorization",
  "x-api-key",
  "x-hub-signature",
  "x-hub-signature-256",
  "stripe-signature",
]);

/** The header names this auth reads a secret or signature from (lower-cased). */
function secretHeaders(auth: ResolvedWebhookAuth): string[] {
  if (auth.type === "header") return [auth.name.toLowerCase()];
  if (auth.type === "hmac") return [auth.header.toLowerCase()];
  return [];
}

function maskHeaders(req: IncomingMessage, auth: ResolvedWebhookAuth): Record<string, string> {
  const extra = secretHeaders(auth);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    // Own keys only: a header named like an Object.prototype member is kept as data.
    setOwn(
      out,
      k,
      maskedHeaders.has(k) || extra.includes(k) ? "[masked]" : Array.isArray(v) ? v.join(", ") : v,
    );
  }
  return out;
}

/**
 * What a flow returns is served from the app's origin: it is sandboxed (an opaque origin where no script
 * runs, so an HTML answer cannot act as the app) and never sniffed into something more active.
 */
const answerDefaults = { "content-security-policy": "sandbox", "x-content-type-options": "nosniff" };

/** The flow's headers minus cookies and security headers (refused at save too; dropped here in any case). */
function flowHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {}))
    if (responseHeaderAllowed(k) && typeof v === "string") setOwn(out, k.toLowerCase(), v);
  return out;
}

/** `/hooks/*` and `/hooks-test/*`: framework-free, authenticates before buffering, admits durably before any 2xx. */
export function createWebhookHandler(deps: WebhookDeps) {
  const limiter = createRateLimiter(deps.now);

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const isTest = url.pathname.startsWith("/hooks-test/");
    const path = url.pathname.slice(isTest ? "/hooks-test/".length : "/hooks/".length);
    let hit: ReturnType<HookRegistry["match"]>;
    try {
      hit = (isTest ? deps.test : deps.production).match(path);
    } catch (e) {
      if (!(e instanceof HttpInputError)) throw e;
      answerError(res, e.errorCode, e.message);
      return;
    }
    if (!hit) {
      answerError(res, "not_found", `no ${isTest ? "test listener" : "active webhook"} at ${url.pathname}`);
      return;
    }
    const { binding, params } = hit;
    const cfg = binding.config;
    const method = (req.method ?? "GET").toUpperCase();
    if (!(cfg.methods as string[]).includes(method)) {
      answerError(
        res,
        "method_not_allowed",
        `${method} is not accepted here; use ${cfg.methods.join(", ")}`,
        undefined,
        { allow: cfg.methods.join(", ") },
      );
      return;
    }
    try {
      if (cfg.rateLimitPerMin) {
        const wait = limiter.take(`${binding.flowId}:${binding.nodeId}`, cfg.rateLimitPerMin);
        if (wait > 0) {
          answerError(res, "rate_limited", `rate limit of ${cfg.rateLimitPerMin}/min exceeded`, undefined, {
            "retry-after": String(wait),
          });
          return;
        }
      }
      let auth: ResolvedWebhookAuth;
      try {
        auth = await deps.resolveAuth(binding);
      } catch {
        // Fails closed. Why is on the trigger's status (wiring.ts reports it); a stack trace in the log for every
        // anonymous request would let anyone fill the disk.
        answerError(res, "internal", "internal error");
        return;
      }
      if (!checkAuthBeforeBody(auth, req.headers)) {
        answerError(res, "unauthorized", "unauthorized");
        return;
      }
      const raw = await readBody(req, cfg.maxBodyBytes);
      if (!checkSignature(auth, req.headers, raw, deps.now())) {
        answerError(res, "unauthorized", "unauthorized");
        return;
      }
      const body = parseBody(req, raw, cfg.bodyType);
      // The payload's shape is fixed here: request data only ever lands inside these fields.
      const payload = {
        method,
        path: url.pathname,
        params,
        headers: maskHeaders(req, auth),
        query: pairsToRecord(url.searchParams),
        body,
        receivedAt: new Date(deps.now()).toISOString(),
      };
      if (isTest) {
        deps.deliverTestEvent(binding, payload);
        sendJson(res, 200, { received: true, message: "test event delivered to the editor" });
        return;
      }
      const key = cfg.idempotency
        ? (req.headers[cfg.idempotency.header.toLowerCase()] as string | undefined)
        : undefined;
      const payloadJson = JSON.stringify(payload);
      const inline =
        cfg.responseMode === "sync" && !key
          ? await deps.runInline?.(binding, payload, payloadJson)
          : undefined;
      let runId: string;
      let response: WebhookResponse | undefined;
      if (inline) ({ runId, response } = inline);
      else {
        const admitted = await deps.admit(binding, payloadJson, key);
        runId = admitted.runId;
        if (cfg.responseMode === "async" || admitted.duplicate) {
          sendJson(res, 202, { runId, ...(admitted.duplicate ? { duplicate: true } : {}) });
          return;
        }
        response = await deps.waitForResponse(runId, cfg.syncTimeoutMs);
        if (!response) {
          sendJson(res, statusOf("timeout"), {
            error: {
              code: "timeout",
              message: `the flow did not respond within ${cfg.syncTimeoutMs} ms; the run goes on`,
              runId,
            },
          });
          return;
        }
      }
      if (!responseStatusAllowed(response.status)) {
        // Refused by webhook.respond's schema too; an interim (1xx) answer would desynchronise the connection.
        sendJson(res, statusOf("invalid_response"), {
          error: {
            code: "invalid_response",
            message: "the flow answered with a status outside 200–599",
            runId,
          },
        });
        return;
      }
      const isText = typeof response.body === "string";
      const text = isText ? (response.body as string) : JSON.stringify(response.body ?? null);
      res.writeHead(response.status, {
        "content-type": isText ? "text/plain; charset=utf-8" : "application/json; charset=utf-8",
        ...flowHeaders(response.headers),
        ...answerDefaults,
        "x-switchyard-run-id": runId,
        "content-length": Buffer.byteLength(text),
      });
      res.end(text);
    } catch (e) {
      if (e instanceof HttpInputError) {
        if (e.status === 413) closeAfterResponse(req, res);
        answerError(res, e.errorCode, e.message);
        return;
      }
      throw e;
    }
  };
}
