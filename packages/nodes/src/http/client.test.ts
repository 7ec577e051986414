import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../__tests__/http-server";
import type { NodeError } from "../errors";
import { createHttpClient } from "./client";

let server: TestServer;
let other: TestServer;

beforeAll(async () => {
  other = await startServer((req, res) =>
    res.end(JSON.stringify({ auth: req.headers.authorization ?? null })),
  );
  server = await startServer((req, res) => {
    const url = req.url ?? "";
    if (url === "/see-other") res.writeHead(303, { location: "/landing" }).end();
    else if (url === "/hop") res.writeHead(302, { location: "/landing" }).end();
    else if (url === "/elsewhere") res.writeHead(307, { location: `http://localhost:${other.port}/` }).end();
    else if (url.startsWith("/loop")) res.writeHead(302, { location: `/loop${url.length}` }).end();
    else res.end(`${req.method} ${url}`);
  });
});
afterAll(async () => {
  await server.close();
  await other.close();
});

// "localhost" resolves through a fake, so the test never depends on the machine's resolver order.
const client = createHttpClient({
  allowHosts: ["127.0.0.1", "localhost"],
  lookup: async () => [{ address: "127.0.0.1", family: 4 }],
});
const text = (body: Uint8Array) => Buffer.from(body).toString();

describe("createHttpClient", () => {
  it("follows a relative redirect and reports the final URL", async () => {
    const res = await client.request({ method: "GET", url: `${server.url}/hop` });
    expect([res.status, text(res.body), res.url]).toEqual([200, "GET /landing", `${server.url}/landing`]);
  });

  it("turns a POST into a GET without body on 303", async () => {
    const res = await client.request({
      method: "POST",
      url: `${server.url}/see-other`,
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(text(res.body)).toBe("GET /landing");
    expect(server.requests.at(-1)?.headers["content-type"]).toBeUndefined();
  });

  it("drops the Authorization header when a redirect changes origin", async () => {
    const res = await client.request({
      method: "GET",
      url: `${server.url}/elsewhere`,
      headers: { authorization: "Bearer x" },
    });
    expect(JSON.parse(text(res.body))).toEqual({ auth: null });
  });

  it("drops every credential-bearing header on a cross-origin redirect, custom secret headers included", async () => {
    const res = await client.request({
      method: "GET",
      url: `${server.url}/elsewhere`,
      headers: {
        accept: "application/json",
        "user-agent": "switchyard",
        "X-Api-Key": "k3y",
        "proxy-authorization": "Basic cA==",
        "x-auth-token": "t0k",
        cookie: "sid=1",
      },
    });
    expect(res.status).toBe(200);
    const seen = other.requests.at(-1)?.headers ?? {};
    expect(Object.keys(seen).sort()).toEqual(["accept", "connection", "host", "user-agent"]);
  });

  it("keeps the request's headers on a same-origin redirect", async () => {
    await client.request({ method: "GET", url: `${server.url}/hop`, headers: { "x-api-key": "k3y" } });
    expect(server.requests.at(-1)?.headers["x-api-key"]).toBe("k3y");
  });

  it("gives up after five redirects", async () => {
    const err = (await client
      .request({ method: "GET", url: `${server.url}/loop` })
      .catch((e) => e)) as NodeError;
    expect(err.code).toBe("http_failed");
    expect(err.message).toBe(`more than 5 redirects from ${server.url}/loop`);
  });

  it("reports a refused connection as a retryable http_failed", async () => {
    const port = other.port;
    await other.close();
    const err = (await client
      .request({ method: "GET", url: `http://127.0.0.1:${port}/` })
      .catch((e) => e)) as NodeError;
    expect(err.code).toBe("http_failed");
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(
      new RegExp(`^request to http://127.0.0.1:${port} failed: connect ECONNREFUSED`),
    );
  });

  it("refuses a malformed URL as input_invalid", async () => {
    const err = (await client.request({ method: "GET", url: "not a url" }).catch((e) => e)) as NodeError;
    expect(err).toMatchObject({ code: "input_invalid", message: '"not a url" is not a valid URL' });
  });
});
