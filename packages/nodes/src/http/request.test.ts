import type { SecretsReader } from "@switchyard/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { startServer, type TestServer } from "../__tests__/http-server";
import { NodeError } from "../errors";
import { createHttpClient } from "./client";
import { httpRequestNode } from "./request";
import { executeNode } from "../__tests__/execute-node";

const CREDENTIALS: Record<string, { type: string; data: Record<string, string> }> = {
  bearer: { type: "bearer", data: { token: "t0k", allowedHosts: "127.0.0.1" } },
  basic: { type: "basic", data: { user: "ada", password: "pw", allowedHosts: "127.0.0.1" } },
  header: { type: "header", data: { name: "x-api-key", value: "k3y", allowedHosts: "127.0.0.1" } },
  empty: { type: "bearer", data: { allowedHosts: "127.0.0.1" } },
  elsewhere: { type: "bearer", data: { token: "t0k", allowedHosts: "api.example.com, *.example.org" } },
  legacy: { type: "bearer", data: { token: "t0k" } },
};
const secrets: SecretsReader = {
  get: async (id) => {
    const c = CREDENTIALS[id];
    if (!c) throw new Error(`no credential ${id}`);
    return c;
  },
};

let server: TestServer;
let flaky = 0;

beforeAll(async () => {
  server = await startServer((req, res, body) => {
    const path = (req.url ?? "").split("?")[0];
    if (path === "/echo") {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({ method: req.method, url: req.url, body, auth: req.headers.authorization ?? null }),
      );
    } else if (path === "/to-localhost") {
      res.writeHead(307, { location: `http://localhost:${server.port}/echo` }).end();
    } else if (path === "/flaky") {
      flaky++;
      if (flaky < 3) res.writeHead(503, { "retry-after": "0" }).end("busy");
      else res.end("ok");
    } else if (path === "/slow-retry") {
      res.writeHead(429, { "retry-after": "3600" }).end();
    } else if (path === "/missing") {
      res.writeHead(404).end("nope");
    } else if (path === "/big") {
      res.end("x".repeat(5000));
    } else if (path === "/deep") {
      res.setHeader("content-type", "application/json");
      res.end(`${'{"a":'.repeat(6000)}1${"}".repeat(6000)}`);
    } else if (path === "/hang") {
      // never answers
    } else {
      res.end("hello");
    }
  });
});
afterAll(() => server.close());

const http = createHttpClient({ allowHosts: ["127.0.0.1"] });
const run = (config: Record<string, unknown>, extra = {}) =>
  executeNode(httpRequestNode, {
    config: config as never,
    input: items({}),
    ctx: fakeCtx({ http, secrets, ...extra }),
  });

describe("http.request", () => {
  it("sends method, query and a JSON body and parses a JSON answer", async () => {
    const out = await run({
      method: "POST",
      url: `${server.url}/echo`,
      query: { q: "a b", n: 2 },
      body: { type: "json", value: { id: 1 } },
    });
    expect(out).toEqual({
      items: [
        {
          json: expect.objectContaining({
            status: 200,
            body: { method: "POST", url: "/echo?q=a+b&n=2", body: '{"id":1}', auth: null },
          }),
        },
      ],
    });
    expect(server.requests.at(-1)?.headers["content-type"]).toBe("application/json");
  });

  it("sends a form body url-encoded", async () => {
    await run({
      method: "POST",
      url: `${server.url}/echo`,
      body: { type: "form", fields: { a: "1", b: "x y" } },
    });
    expect(server.requests.at(-1)?.body).toBe("a=1&b=x+y");
    expect(server.requests.at(-1)?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  it("adds bearer, basic and header credentials from ctx.secrets", async () => {
    await run({ url: `${server.url}/echo`, auth: { type: "bearer", credentialId: "bearer" } });
    expect(server.requests.at(-1)?.headers.authorization).toBe("Bearer t0k");
    await run({ url: `${server.url}/echo`, auth: { type: "basic", credentialId: "basic" } });
    expect(server.requests.at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from("ada:pw").toString("base64")}`,
    );
    await run({ url: `${server.url}/echo`, auth: { type: "header", credentialId: "header" } });
    expect(server.requests.at(-1)?.headers["x-api-key"]).toBe("k3y");
  });

  it("refuses to send a credential to a host outside its allowed hosts, naming credential, host and list", async () => {
    const before = server.requests.length;
    const err = await run({
      url: `${server.url}/echo`,
      auth: { type: "bearer", credentialId: "elsewhere" },
    }).catch((e) => e);
    expect(err).toMatchObject({
      code: "policy_denied",
      nodeId: "n1",
      retryable: false,
      message:
        'credential "elsewhere" may not be sent to 127.0.0.1: its allowed hosts are api.example.com, *.example.org',
    });
    expect(server.requests.length).toBe(before);
  });

  it("refuses a stored credential without allowed hosts and says how to fix it", async () => {
    const before = server.requests.length;
    const err = await run({
      url: `${server.url}/echo`,
      auth: { type: "bearer", credentialId: "legacy" },
    }).catch((e) => e);
    expect(err).toMatchObject({
      code: "policy_denied",
      message:
        'credential "legacy" has no allowed hosts, so it is sent nowhere: edit the credential (Settings › Credentials) and add the hosts it may be sent to',
    });
    expect(server.requests.length).toBe(before);
  });

  it("never sends a header credential along a redirect to a host outside its allowed hosts", async () => {
    const viaLocalhost = createHttpClient({
      allowHosts: ["127.0.0.1", "localhost"],
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    const out = await run(
      { url: `${server.url}/to-localhost`, auth: { type: "header", credentialId: "header" } },
      { http: viaLocalhost },
    );
    expect(out).toMatchObject({ items: [{ json: { status: 200 } }] });
    const last = server.requests.at(-1);
    expect([last?.url, last?.headers.host, last?.headers["x-api-key"]]).toEqual([
      "/echo",
      `localhost:${server.port}`,
      undefined,
    ]);
  });

  it("fails clearly when a credential lacks the field it needs", async () => {
    const err = await run({
      url: `${server.url}/echo`,
      auth: { type: "bearer", credentialId: "empty" },
    }).catch((e) => e);
    expect(err).toMatchObject({ code: "config_invalid", message: 'credential "empty" has no "token" field' });
  });

  it("retries 503 answers honouring Retry-After, then succeeds", async () => {
    flaky = 0;
    const ctx = fakeCtx({ http });
    const out = await executeNode(httpRequestNode, {
      config: { url: `${server.url}/flaky`, retries: 3 } as never,
      input: items({}),
      ctx,
    });
    expect(out).toMatchObject({ items: [{ json: { status: 200, body: "ok" } }] });
    expect(flaky).toBe(3);
    expect(ctx.logs.map((l) => l.message)).toEqual([
      "attempt 1 failed (HTTP 503); retrying in 0 ms",
      "attempt 2 failed (HTTP 503); retrying in 0 ms",
    ]);
  });

  it("caps a long Retry-After at maxRetryDelayMs and fails after the last attempt", async () => {
    const before = server.requests.length;
    const err = (await run({ url: `${server.url}/slow-retry`, retries: 1, maxRetryDelayMs: 20 }).catch(
      (e) => e,
    )) as NodeError;
    expect(err.code).toBe("http_failed");
    expect(err.message).toBe(`GET ${server.url}/slow-retry answered HTTP 429`);
    expect(err.retryable).toBe(true);
    expect(server.requests.length - before).toBe(2);
  });

  it("fails a 404 as non-retryable, or passes it on when failOnStatus is off", async () => {
    const err = (await run({ url: `${server.url}/missing` }).catch((e) => e)) as NodeError;
    expect(err).toMatchObject({ code: "http_failed", retryable: false, nodeId: "n1" });
    const out = await run({ url: `${server.url}/missing`, failOnStatus: false });
    expect(out).toMatchObject({ items: [{ json: { status: 404, body: "nope" } }] });
  });

  it("refuses a response larger than maxResponseBytes", async () => {
    const err = (await run({ url: `${server.url}/big`, maxResponseBytes: 100, retries: 0 }).catch(
      (e) => e,
    )) as NodeError;
    expect(err.code).toBe("http_failed");
    expect(err.message).toBe(`response from ${server.url} is larger than 100 bytes`);
  });

  it("fails a JSON answer nested deeper than 1000 levels as non-retryable, naming the byte", async () => {
    const err = (await run({ url: `${server.url}/deep`, retries: 0 }).catch((e) => e)) as NodeError;
    expect(err).toMatchObject({ code: "http_failed", retryable: false, nodeId: "n1" });
    expect(err.message).toBe(`response from ${server.url}/deep nests deeper than 1000 levels (at byte 5000)`);
  });

  it("times out a request that never answers", async () => {
    const err = (await run({ url: `${server.url}/hang`, timeoutMs: 150, retries: 0 }).catch(
      (e) => e,
    )) as NodeError;
    expect(err.code).toBe("timeout");
    expect(err.message).toBe(`request to ${server.url} timed out after 150 ms`);
  });

  it("refuses loopback when the host client does not allow it", async () => {
    const err = (await run({ url: `${server.url}/echo`, retries: 0 }, { http: createHttpClient() }).catch(
      (e) => e,
    )) as NodeError;
    expect(err.code).toBe("policy_denied");
  });

  it("fails with not_configured when ctx.http is absent", async () => {
    const err = await executeNode(httpRequestNode, {
      config: { url: `${server.url}/` },
      input: items({}),
      ctx: fakeCtx(),
    }).catch((e) => e);
    expect(err).toMatchObject({ code: "not_configured", message: "HTTP is not available to this node" });
  });

  it("rejects a non-http URL as config_invalid", async () => {
    const err = await run({ url: "ftp://example.com/" }).catch((e) => e);
    expect(err).toBeInstanceOf(NodeError);
    expect(err.code).toBe("config_invalid");
    expect(err.message).toBe('node "n1" field "url": Invalid URL');
  });
});
