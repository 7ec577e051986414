import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { postEndlessBody } from "../../__tests__/endless-body";
import type { ResolvedWebhookAuth } from "./auth";
import { createWebhookHandler, type WebhookResponse } from "./handler";
import { createHookRegistry, type HookBinding, type WebhookConfig } from "./registry";

const baseConfig: WebhookConfig = {
  path: "orders",
  methods: ["POST"],
  auth: { type: "none" },
  responseMode: "async",
  syncTimeoutMs: 200,
  bodyType: "json",
  maxBodyBytes: 1024,
};

let server: Server;
let url: string;
let admitted: { binding: HookBinding; payload: Record<string, unknown> }[];
let production: ReturnType<typeof createHookRegistry>;
let auth: ResolvedWebhookAuth;
let respond: WebhookResponse | undefined;
const seenKeys = new Map<string, string>();

beforeEach(async () => {
  admitted = [];
  auth = { type: "none" };
  respond = undefined;
  seenKeys.clear();
  production = createHookRegistry();
  const handler = createWebhookHandler({
    production,
    test: createHookRegistry(),
    resolveAuth: async () => auth,
    admit: async (binding, payloadJson, key) => {
      if (key && seenKeys.has(key)) return { runId: seenKeys.get(key)!, duplicate: true };
      admitted.push({ binding, payload: JSON.parse(payloadJson) });
      const runId = `run-${admitted.length}`;
      if (key) seenKeys.set(key, runId);
      return { runId, duplicate: false };
    },
    waitForResponse: async (_runId, timeoutMs) =>
      respond ? respond : new Promise((r) => setTimeout(() => r(undefined), timeoutMs)),
    deliverTestEvent: () => {},
    now: () => Date.now(),
  });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address() as { port: number };
  url = `http://127.0.0.1:${addr.port}`;
});
afterEach(async () => {
  await new Promise((r) => server.close(r));
});

const bind = (config: Partial<WebhookConfig>) =>
  production.bind({ flowId: "f1", flowVersion: 3, nodeId: "hook", config: { ...baseConfig, ...config } });
const post = (
  path: string,
  body: string,
  headers: Record<string, string> = { "content-type": "application/json" },
) => fetch(`${url}${path}`, { method: "POST", body, headers });

describe("webhook handler", () => {
  it("admits a JSON call durably and answers 202 with the run id", async () => {
    bind({});
    const res = await post("/hooks/orders?x=1", '{"n":1}');
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ runId: "run-1" });
    expect(admitted[0]?.payload).toMatchObject({
      method: "POST",
      path: "/hooks/orders",
      body: { n: 1 },
      query: { x: "1" },
      params: {},
    });
  });

  it("keeps request data inside the payload's body so it can't set server-side fields", async () => {
    bind({});
    await post("/hooks/orders", '{"method":"DELETE","receivedAt":"1970","__proto__":{"admin":true}}');
    const p = admitted[0]!.payload;
    expect(p.method).toBe("POST");
    expect(p.receivedAt).not.toBe("1970");
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("answers 404 for an unknown path and 405 with the accepted methods for a method it does not accept", async () => {
    bind({});
    const missing = await post("/hooks/nope", "{}");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { code: "not_found", message: "no active webhook at /hooks/nope" },
    });
    const get = await fetch(`${url}/hooks/orders`);
    expect(get.status).toBe(405);
    // RFC 9110: a 405 names the methods that are accepted.
    expect(get.headers.get("allow")).toBe("POST");
    expect(admitted).toHaveLength(0);
  });

  it("refuses malformed JSON with 400 and the parse position, admitting nothing", async () => {
    bind({});
    const res = await post("/hooks/orders", '{"a": 1,,}');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("malformed_json");
    expect(body.error.message).toBe(
      "malformed JSON body at line 1, column 9 (position 8): Expected double-quoted property name",
    );
    expect(admitted).toHaveLength(0);
  });

  it("refuses a body nested 5 000 levels deep with 400 body_too_deep before admitting (it used to be a bare 500)", async () => {
    bind({ maxBodyBytes: 1024 * 1024 });
    const res = await post("/hooks/orders", `{"x":${"[".repeat(5000)}${"]".repeat(5000)}}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: "body_too_deep",
      message: "JSON body nests deeper than 1000 levels (at byte 1004); send it flatter",
    });
    expect(admitted).toHaveLength(0);
  });

  it("refuses an oversized body with 413 before admitting", async () => {
    bind({ maxBodyBytes: 64 });
    const res = await post("/hooks/orders", JSON.stringify({ big: "x".repeat(100) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    expect(admitted).toHaveLength(0);
  });

  it("refuses a chunked body (no content-length) with 413 once it passes the limit, before admitting", async () => {
    bind({ maxBodyBytes: 64 });
    // Never ended, in chunks of 40 bytes: the second crosses the limit; the answer must not wait for the end.
    const { status, body } = await postEndlessBody(`${url}/hooks/orders`, { chunkBytes: 40 });
    expect(status).toBe(413);
    expect(JSON.parse(body).error).toEqual({
      code: "payload_too_large",
      message: "body exceeds the limit of 64 bytes",
    });
    expect(admitted).toHaveLength(0);
  });

  it("refuses the wrong content type with 415", async () => {
    bind({});
    const res = await post("/hooks/orders", "a=1", { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(415);
    expect(admitted).toHaveLength(0);
  });

  it("parses form bodies when the trigger declares them", async () => {
    bind({ bodyType: "form" });
    await post("/hooks/orders", "a=1&b=2&b=3", { "content-type": "application/x-www-form-urlencoded" });
    expect(admitted[0]?.payload.body).toEqual({ a: "1", b: ["2", "3"] });
  });

  it("answers 401 without detail for a bad header token and masks the token in the payload", async () => {
    bind({});
    auth = { type: "header", name: "X-Token", secret: "s3cret" };
    const bad = await post("/hooks/orders", "{}", { "content-type": "application/json", "x-token": "nope" });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: { code: "unauthorized", message: "unauthorized" } });
    const good = await post("/hooks/orders", "{}", {
      "content-type": "application/json",
      "x-token": "s3cret",
    });
    expect(good.status).toBe(202);
    expect((admitted[0]!.payload.headers as Record<string, string>)["x-token"]).toBe("[masked]");
  });

  it("verifies a GitHub signature over the raw body", async () => {
    bind({});
    auth = { type: "hmac", preset: "github", header: "X-Hub-Signature-256", secret: "k" };
    const body = '{"action":"opened"}';
    const sig = `sha256=${createHmac("sha256", "k").update(body).digest("hex")}`;
    expect(
      (await post("/hooks/orders", body, { "content-type": "application/json", "x-hub-signature-256": sig }))
        .status,
    ).toBe(202);
    expect(
      (
        await post("/hooks/orders", body, {
          "content-type": "application/json",
          "x-hub-signature-256": "sha256=00",
        })
      ).status,
    ).toBe(401);
    expect(admitted).toHaveLength(1);
  });

  it("passes path parameters", async () => {
    production.bind({
      flowId: "f2",
      flowVersion: 1,
      nodeId: "hook",
      config: { ...baseConfig, path: "orders/:id/events" },
    });
    await post("/hooks/orders/42/events", "{}");
    expect(admitted[0]?.payload.params).toEqual({ id: "42" });
  });

  it("answers a path parameter with broken percent-encoding with 400 naming it, and admits nothing", async () => {
    production.bind({
      flowId: "f2",
      flowVersion: 1,
      nodeId: "hook",
      config: { ...baseConfig, path: "orders/:id/events" },
    });
    const res = await post("/hooks/orders/%E0%A4%A/events", "{}");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "malformed_path",
        message: 'path parameter "id" is not valid percent-encoding: %E0%A4%A',
      },
    });
    expect(admitted).toHaveLength(0);
  });

  it("rate-limits with 429 and Retry-After", async () => {
    bind({ rateLimitPerMin: 2 });
    expect((await post("/hooks/orders", "{}")).status).toBe(202);
    expect((await post("/hooks/orders", "{}")).status).toBe(202);
    const limited = await post("/hooks/orders", "{}");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(admitted).toHaveLength(2);
  });

  it("returns the first run for a repeated Idempotency-Key", async () => {
    bind({ idempotency: { header: "Idempotency-Key", ttlSec: 60 } });
    const h = { "content-type": "application/json", "idempotency-key": "abc" };
    expect(await (await post("/hooks/orders", "{}", h)).json()).toEqual({ runId: "run-1" });
    expect(await (await post("/hooks/orders", "{}", h)).json()).toEqual({ runId: "run-1", duplicate: true });
    expect(admitted).toHaveLength(1);
  });

  it("returns the respond node's status and body in sync mode", async () => {
    bind({ responseMode: "sync" });
    respond = { status: 201, headers: { "x-a": "b" }, body: { ok: true } };
    const res = await post("/hooks/orders", "{}");
    expect(res.status).toBe(201);
    expect(res.headers.get("x-a")).toBe("b");
    expect(res.headers.get("x-switchyard-run-id")).toBe("run-1");
    expect(await res.json()).toEqual({ ok: true });
  });

  it("serves a sync answer sandboxed and unsniffed, dropping the cookies and security headers a flow set", async () => {
    bind({ responseMode: "sync" });
    respond = {
      status: 200,
      headers: {
        "Content-Type": "text/html",
        "Set-Cookie": "sid=planted; Path=/",
        "Content-Security-Policy": "default-src *",
        "X-Content-Type-Options": "sniff",
        "Strict-Transport-Security": "max-age=0",
        "Clear-Site-Data": '"cookies"',
        "Access-Control-Allow-Credentials": "true",
        "X-Kept": "yes",
      },
      body: "<script>fetch('/api/trpc/user.create')</script>",
    };
    const res = await post("/hooks/orders", "{}");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html");
    expect(res.headers.get("content-security-policy")).toBe("sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-kept")).toBe("yes");
    for (const h of [
      "set-cookie",
      "strict-transport-security",
      "clear-site-data",
      "access-control-allow-credentials",
    ])
      expect(res.headers.get(h)).toBeNull();
  });

  it("answers 504 with the run id when a sync run does not respond in time", async () => {
    bind({ responseMode: "sync", syncTimeoutMs: 100 });
    const res = await post("/hooks/orders", "{}");
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({
      error: {
        code: "timeout",
        message: "the flow did not respond within 100 ms; the run goes on",
        runId: "run-1",
      },
    });
  });
});
