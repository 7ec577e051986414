import { request as httpRequest, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import type { Host } from "../host";
import { postEndlessBody } from "../__tests__/endless-body";
import { createLogger } from "../logger";
import { createHttpServer, listen } from "./server";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** The server with handlers that echo what reached them; only the edge's own decisions are under test. */
async function start(env: Record<string, string> = {}) {
  const config = parseConfig({ SWITCHYARD_BASE_URL: "https://sy.example.com", ...env });
  const host = {
    config,
    log: createLogger("silent"),
    health: async () => ({
      status: healthy ? "ok" : "error",
      version: "test",
      role: "all",
      db: healthy ? "ok" : "error",
    }),
  } as unknown as Host;
  const echo =
    (route: string) =>
    (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ route, headers: req.headers }));
    };
  server = createHttpServer(host, { web: echo("web"), api: echo("api"), hooks: echo("hooks") });
  const { port } = await listen(server, 0, "127.0.0.1");
  return port;
}

/** node:http, because fetch will not send a Host header of our choosing. */
function get(port: number, path: string, headers: Record<string, string>) {
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(body) }));
    });
    req.on("error", reject);
    req.end();
  });
}

let healthy = true;

describe("Host check at the edge", () => {
  it("answers 421 naming the host and the variable when a browser addresses a name we do not answer to", async () => {
    const port = await start();
    for (const path of ["/setup", "/api/trpc/auth.setup", "/api/v1/flows"]) {
      const res = await get(port, path, { host: "evil.example:3000", cookie: "sy_session=abc" });
      expect(res.status, path).toBe(421);
      expect(res.json).toEqual({
        error: {
          code: "host_not_allowed",
          message:
            "this Switchyard does not answer browser requests for 'evil.example:3000' (protection against DNS rebinding); if that is its address, add the name to SWITCHYARD_ALLOWED_HOSTS or set SWITCHYARD_BASE_URL",
        },
      });
    }
  });

  it("serves the base URL's host, loopback names, IP addresses and SWITCHYARD_ALLOWED_HOSTS", async () => {
    const port = await start({ SWITCHYARD_ALLOWED_HOSTS: "sy.lan" });
    for (const host of [
      "sy.example.com",
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      "10.0.0.7:3000",
      "sy.lan",
    ]) {
      expect((await get(port, "/setup", { host })).status, host).toBe(200);
    }
  });

  it("does not check webhooks, API-key requests or the health check (no ambient credential)", async () => {
    const port = await start();
    const host = "evil.example";
    expect((await get(port, "/hooks/x", { host })).json.route).toBe("hooks");
    expect((await get(port, "/api/v1/flows", { host, authorization: "Bearer sy_key" })).json.route).toBe(
      "api",
    );
    expect((await get(port, "/api/trpc/flow.list", { host, "x-api-key": "sy_key" })).json.route).toBe("web");
    expect((await get(port, "/api/health", { host })).json.status).toBe("ok");
  });

  it("answers /api/health itself, 503 with the report when the database is down", async () => {
    const port = await start();
    healthy = false;
    const res = await get(port, "/api/health", {});
    healthy = true;
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ status: "error", version: "test", role: "all", db: "error" });
  });

  it("drops X-Forwarded-Host and X-Forwarded-Proto unless a proxy is trusted, so they cannot stand in for Host or the scheme", async () => {
    const direct = await start();
    const spoofed = await get(direct, "/setup", {
      host: "evil.example",
      "x-forwarded-host": "sy.example.com",
    });
    expect(spoofed.status).toBe(421);
    const ok = await get(direct, "/setup", {
      host: "localhost",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
    });
    expect(ok.json.headers["x-forwarded-host"]).toBeUndefined();
    expect(ok.json.headers["x-forwarded-proto"]).toBeUndefined();
  });

  it("behind a trusted proxy checks the forwarded host and never makes a client without X-Forwarded-For local", async () => {
    const port = await start({ SWITCHYARD_TRUST_PROXY: "true" });
    const rebound = await get(port, "/setup", { host: "127.0.0.1:3000", "x-forwarded-host": "evil.example" });
    expect(rebound.status).toBe(421);
    const proxied = await get(port, "/setup", {
      host: "127.0.0.1:3000",
      "x-forwarded-host": "sy.example.com",
    });
    expect(proxied.status).toBe(200);
    expect(proxied.json.headers["x-forwarded-for"]).toBe("unknown");
  });
});

describe("body limits of the web app", () => {
  it("answers 413 with the JSON error shape for a body over 5 MB, before the app reads it", async () => {
    const port = await start();
    const res = await postEndlessBody(`http://127.0.0.1:${port}/api/trpc/flow.save`, {
      headers: { "content-type": "application/json", "content-length": String(6 * 1024 * 1024) },
      maxBytes: 6 * 1024 * 1024,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: "payload_too_large", message: "the request body is larger than 5 MB" },
    });
  });

  it("answers 411 for a chunked body, whose size nothing would bound", async () => {
    const port = await start();
    const res = await postEndlessBody(`http://127.0.0.1:${port}/api/trpc/auth.signIn`);
    expect(res.status).toBe(411);
    expect(JSON.parse(res.body)).toEqual({
      error: {
        code: "length_required",
        message: "send the request body with a Content-Length (at most 5 MB)",
      },
    });
  });

  it("refuses a chunked memory upload, which would otherwise pass its 50 MB limit unchecked", async () => {
    const port = await start();
    const res = await postEndlessBody(`http://127.0.0.1:${port}/api/memory/import`, {
      headers: { "content-type": "multipart/form-data; boundary=x" },
    });
    expect(res.status).toBe(411);
    expect(JSON.parse(res.body)).toEqual({
      error: {
        code: "length_required",
        message: "send the request body with a Content-Length (at most 50 MB)",
      },
    });
  });

  it("lets a memory upload past 5 MB through to its route and refuses one past 50 MB", async () => {
    const port = await start();
    const passed = await fetch(`http://127.0.0.1:${port}/api/memory/import`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "x".repeat(6 * 1024 * 1024),
    });
    expect(((await passed.json()) as { route: string }).route).toBe("web");
    const refused = await postEndlessBody(`http://127.0.0.1:${port}/api/memory/import`, {
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(51 * 1024 * 1024),
      },
      maxBytes: 51 * 1024 * 1024,
    });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body).error.message).toBe("the request body is larger than 50 MB");
  });

  it("passes a body within the limit to the web app", async () => {
    const port = await start();
    const res = await fetch(`http://127.0.0.1:${port}/api/trpc/flow.save`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ big: "x".repeat(4 * 1024 * 1024) }),
    });
    expect(((await res.json()) as { route: string }).route).toBe("web");
  });
});

describe("listening", () => {
  it("names the variable to change when the port is taken or HOST is no address of this machine", async () => {
    const { createServer } = await import("node:http");
    server = createServer();
    const { port } = await listen(server, 0, "127.0.0.1");
    await expect(listen(createServer(), port, "127.0.0.1")).rejects.toThrow(
      `port ${port} on 127.0.0.1 is already in use: stop what listens there or set PORT`,
    );
    await expect(listen(createServer(), 0, "not.a.host.invalid")).rejects.toThrow(
      /^HOST not\.a\.host\.invalid is not an address of this machine \((ENOTFOUND|EAI_AGAIN)\): use e\.g\. 127\.0\.0\.1, or 0\.0\.0\.0 for every interface$/,
    );
  });
});
