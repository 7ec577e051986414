import {
  type HttpResponse,
  jsonNestingPastLimit,
  MAX_JSON_DEPTH,
  type NodeContext,
} from "@switchyard/engine";
import { z } from "zod";
import { defineNode } from "../define";
import { NodeError, notConfigured } from "../errors";
import { sleep } from "../util/sleep";
import { assertCredentialHost } from "./allowed-hosts";
import { isRetryableStatus, retryDelayMs } from "./retry";

const credentialId = z.string().min(1).describe("Credential to authenticate with");

const auth = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("none").describe("No authentication") }),
    z.object({
      type: z.literal("header").describe("Secret sent in a header (credential fields: value, optional name)"),
      credentialId,
      headerName: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe("Header name (default: the credential's name)"),
    }),
    z.object({ type: z.literal("bearer").describe("Bearer token (credential field: token)"), credentialId }),
    z.object({
      type: z.literal("basic").describe("Basic auth (credential fields: user, password)"),
      credentialId,
    }),
  ])
  .default({ type: "none" })
  .describe("How to authenticate");

const body = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("none").describe("No body") }),
    z.object({
      type: z.literal("json").describe("JSON body"),
      value: z.unknown().describe("Value sent as JSON"),
    }),
    z.object({
      type: z.literal("form").describe("URL-encoded form"),
      fields: z.record(z.string(), z.string()).describe("Form fields"),
    }),
    z.object({
      type: z.literal("raw").describe("Raw text"),
      content: z.string().describe("Body text"),
      contentType: z.string().default("text/plain").describe("Content-Type header"),
    }),
  ])
  .default({ type: "none" })
  .describe("Request body");

export const httpRequestConfig = z.object({
  method: z
    .enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
    .default("GET")
    .describe("HTTP method"),
  url: z.url({ protocol: /^https?$/ }).describe("Address to call (http or https)"),
  query: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .describe("Query parameters added to the URL"),
  headers: z.record(z.string(), z.string()).optional().describe("Request headers"),
  body,
  auth,
  timeoutMs: z.number().int().min(100).max(300_000).default(30_000).describe("Timeout per attempt, in ms"),
  maxResponseBytes: z
    .number()
    .int()
    .min(1)
    .max(50 * 1024 * 1024)
    .default(5 * 1024 * 1024)
    .describe("Largest accepted response body, in bytes"),
  retries: z
    .number()
    .int()
    .min(0)
    .max(5)
    .default(2)
    .describe("Extra attempts on 429, 5xx and network errors"),
  maxRetryDelayMs: z
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(30_000)
    .describe("Longest wait between attempts, Retry-After included, in ms"),
  responseFormat: z
    .enum(["auto", "json", "text", "base64"])
    .default("auto")
    .describe("How the response body is decoded (auto: JSON when the server says so)"),
  failOnStatus: z.boolean().default(true).describe("Fail the step on a 4xx/5xx answer"),
});

type Config = z.infer<typeof httpRequestConfig>;

/** The credential's headers, after checking that it may be sent to `url`'s host at all. */
async function authHeaders(config: Config, url: URL, ctx: NodeContext): Promise<Record<string, string>> {
  const a = config.auth;
  if (a.type === "none") return {};
  if (!ctx.secrets) throw notConfigured("Credentials", ctx.nodeId);
  const { data } = await ctx.secrets.get(a.credentialId);
  assertCredentialHost(a.credentialId, data, url.hostname, ctx.nodeId);
  const need = (field: string, alt?: string): string => {
    const v = data[field] ?? (alt ? data[alt] : undefined);
    if (!v) {
      throw new NodeError("config_invalid", `credential "${a.credentialId}" has no "${field}" field`, {
        nodeId: ctx.nodeId,
        retryable: false,
      });
    }
    return v;
  };
  if (a.type === "bearer") return { authorization: `Bearer ${need("token")}` };
  if (a.type === "basic") {
    const pair = `${need("user", "username")}:${need("password")}`;
    return { authorization: `Basic ${Buffer.from(pair).toString("base64")}` };
  }
  return { [a.headerName ?? need("name")]: need("value") };
}

function encodeBody(b: Config["body"]): { body?: string; contentType?: string } {
  if (b.type === "json") return { body: JSON.stringify(b.value ?? null), contentType: "application/json" };
  if (b.type === "form")
    return {
      body: new URLSearchParams(b.fields).toString(),
      contentType: "application/x-www-form-urlencoded",
    };
  if (b.type === "raw") return { body: b.content, contentType: b.contentType };
  return {};
}

function decode(res: HttpResponse, format: Config["responseFormat"], nodeId: string): unknown {
  const text = () => Buffer.from(res.body).toString("utf8");
  if (format === "base64") return Buffer.from(res.body).toString("base64");
  if (format === "text") return text();
  const isJson = /[/+]json\b/i.test(res.headers["content-type"] ?? "");
  if (format === "auto" && !isJson) return text();
  if (res.body.length === 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(text());
  } catch (err) {
    throw new NodeError("http_failed", `response from ${res.url} is not valid JSON`, {
      nodeId,
      retryable: false,
      cause: err,
    });
  }
  const at = jsonNestingPastLimit(res.body);
  if (at >= 0) {
    throw new NodeError(
      "http_failed",
      `response from ${res.url} nests deeper than ${MAX_JSON_DEPTH} levels (at byte ${at})`,
      {
        nodeId,
        retryable: false,
      },
    );
  }
  return value;
}

/** Calls an HTTP endpoint through the host's guarded client, once per item. */
export const httpRequestNode = defineNode({
  type: "http.request",
  typeVersion: 1,
  title: "HTTP request",
  description: "Calls an HTTP API and outputs its status, headers and body.",
  category: "network",
  icon: "globe",
  ports: ["main"],
  runMode: "perItem",
  config: httpRequestConfig,
  example: {
    method: "POST",
    url: "https://api.example.com/orders",
    query: { dryRun: true },
    headers: { accept: "application/json" },
    body: { type: "json", value: { id: 42 } },
    auth: { type: "bearer", credentialId: "cred-api" },
    timeoutMs: 10_000,
    retries: 2,
  },
  async execute({ config, input, ctx }) {
    if (!ctx.http) throw notConfigured("HTTP", ctx.nodeId);
    const url = new URL(config.url);
    for (const [k, v] of Object.entries(config.query ?? {})) url.searchParams.append(k, String(v));
    const { body, contentType } = encodeBody(config.body);
    const headers: Record<string, string> = {
      ...(contentType ? { "content-type": contentType } : {}),
      ...config.headers,
      ...(await authHeaders(config, url, ctx)),
    };
    const res = await withRetries(config, ctx, () =>
      ctx.http!.request({
        method: config.method,
        url: url.toString(),
        headers,
        body,
        timeoutMs: config.timeoutMs,
        maxResponseBytes: config.maxResponseBytes,
        signal: ctx.signal,
      }),
    );
    if (config.failOnStatus && res.status >= 400) {
      throw new NodeError(
        "http_failed",
        `${config.method} ${url.origin}${url.pathname} answered HTTP ${res.status}`,
        {
          nodeId: ctx.nodeId,
          retryable: isRetryableStatus(res.status),
        },
      );
    }
    const json = {
      status: res.status,
      headers: res.headers,
      body: decode(res, config.responseFormat, ctx.nodeId),
    };
    return { items: [{ json, ...(input[0]?.binary ? { binary: input[0].binary } : {}) }] };
  },
});

/** Runs `attempt` until it returns a non-retryable answer or the retries are used up. */
async function withRetries(
  config: Config,
  ctx: NodeContext,
  attempt: () => Promise<HttpResponse>,
): Promise<HttpResponse> {
  for (let n = 0; ; n++) {
    let res: HttpResponse | undefined;
    try {
      res = await attempt();
    } catch (err) {
      const retryable = err instanceof NodeError && err.retryable && err.code !== "cancelled";
      if (!retryable || n >= config.retries) throw withNode(err, ctx.nodeId);
    }
    if (res && (!isRetryableStatus(res.status) || n >= config.retries)) return res;
    const delay = retryDelayMs(n, res?.headers["retry-after"], config.maxRetryDelayMs, ctx.now());
    ctx.log.warn(
      `attempt ${n + 1} failed (${res ? `HTTP ${res.status}` : "network error"}); retrying in ${delay} ms`,
    );
    await sleep(delay, ctx.signal);
  }
}

function withNode(err: unknown, nodeId: string): unknown {
  if (err instanceof NodeError) err.nodeId ??= nodeId;
  return err;
}
