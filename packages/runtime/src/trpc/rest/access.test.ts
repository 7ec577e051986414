import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postEndlessBody } from "../../__tests__/endless-body";
import { type ApiHost, exampleBody, startApiHost } from "./__tests__/harness";
import { operations } from "./operations";

let t: ApiHost;
beforeAll(async () => {
  t = await startApiHost();
});
afterAll(async () => {
  await t.close();
});

const concrete = (p: string) => p.replace(/\{\w+\}/g, "some-id");
const protectedRoutes = operations.filter((o) => o.protect);
const writeRoutes = operations.filter((o) => o.type === "mutation");
const readRoutes = operations.filter((o) => o.type === "query");
const takesBody = (o: (typeof operations)[number]) => o.places.rest === "body";

describe("authentication and authorisation", () => {
  it("answers 401 on every protected route without a key, with a bad key, and with a revoked key", async () => {
    expect(protectedRoutes.length).toBeGreaterThan(15);
    const owner = (await t.host.auth.listUsers()).find((u) => u.role === "owner")!;
    const revoked = await t.host.auth.createApiKey(owner.id, owner.id, {
      name: "gone",
      scopes: ["read", "write"],
    });
    await t.host.auth.revokeApiKey(owner.id, revoked.apiKey.id);
    for (const key of [null, "sy_00000000_not-a-real-key-not-a-real-key-not-a-real-k", revoked.key]) {
      for (const r of protectedRoutes) {
        const res = await t.api(r.method, concrete(r.path), { key, body: takesBody(r) ? {} : undefined });
        expect(res.status, `${r.method} ${r.path} with ${key ? "a bad key" : "no key"}`).toBe(401);
        expect(res.json.error.code).toBe("unauthorized");
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      }
    }
  });

  it("answers 403 on every write route for a viewer's key and for a read-only key, and writes nothing", async () => {
    const flowsBefore = await t.host.flows.count();
    for (const key of [t.keys.viewer, t.keys.readOnly]) {
      for (const r of writeRoutes) {
        const body =
          r.operationId === "createFlow" ? exampleBody("order-triage.json") : takesBody(r) ? {} : undefined;
        const res = await t.api(r.method, concrete(r.path), { key, body });
        expect(res.status, `${r.method} ${r.path}`).toBe(403);
        expect(res.json.error.code).toBe("forbidden");
      }
    }
    expect(await t.host.flows.count()).toBe(flowsBefore);
    const viewerWrite = await t.api("POST", "/flows", {
      key: t.keys.viewer,
      body: exampleBody("order-triage.json"),
    });
    expect(viewerWrite.json.error.message).toBe("only owners and editors can do this");
    const readOnlyWrite = await t.api("POST", "/flows", {
      key: t.keys.readOnly,
      body: exampleBody("order-triage.json"),
    });
    expect(readOnlyWrite.json.error.message).toBe("this API key lacks the write scope");
  });

  it("lets a viewer's key and a read-only key read", async () => {
    for (const key of [t.keys.viewer, t.keys.readOnly]) {
      for (const r of readRoutes) {
        const query = r.operationId === "searchMemory" ? "?q=anything" : "";
        const res = await t.api(r.method, `${concrete(r.path)}${query}`, { key });
        expect([200, 404], `${r.method} ${r.path}`).toContain(res.status);
      }
    }
  });

  it("accepts the key in X-API-Key as well as Authorization: Bearer", async () => {
    const res = await t.api("GET", "/flows", { key: null, headers: { "x-api-key": t.keys.readOnly } });
    expect(res.status).toBe(200);
  });

  it("serves the OpenAPI document without a key", async () => {
    const res = await t.api("GET", "/openapi.json", { key: null });
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe("3.1.0");
  });

  it("lets a signed-in browser session write only from the app's own origin", async () => {
    const { token } = await t.host.auth.signIn({
      email: "owner@example.com",
      password: "correct horse battery",
      ip: "127.0.0.1",
    });
    const cookie = `sy_session=${token}`;
    const body = exampleBody("order-triage.json");
    expect((await t.api("GET", "/flows", { key: null, headers: { cookie } })).status).toBe(200);
    const crossSite = await t.api("POST", "/flows", {
      key: null,
      body,
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.json.error.message).toBe("cross-site request refused");
    const sameSite = await t.api("POST", "/flows", { key: null, body, headers: { cookie, origin: t.url } });
    expect(sameSite.status).toBe(201);
  });
});

describe("malformed requests", () => {
  it("answers 400 naming the body for JSON that does not parse", async () => {
    const res = await t.api("POST", "/flows", {
      raw: '{"name": "x", ',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_request");
    expect(res.json.error.details.problems).toEqual([
      { path: "body", message: expect.stringMatching(/JSON/i) },
    ]);
  });

  it("answers 400 when a required body is missing", async () => {
    const res = await t.api("POST", "/flows");
    expect(res.status).toBe(400);
    expect(res.json.error.details.problems).toEqual([{ path: "body", message: "a JSON body is required" }]);
  });

  it("answers 400 naming each field of the wrong type", async () => {
    const res = await t.api("POST", "/flows", { body: { name: 42, definition: "nodes" } });
    expect(res.status).toBe(400);
    expect(res.json.error.details.problems.map((p: { path: string }) => p.path).sort()).toEqual([
      "body.definition",
      "body.name",
    ]);
  });

  it("refuses a path parameter sent again in the query or the body, and a prototype-named parameter", async () => {
    const inQuery = await t.api("GET", "/flows/a?id=b");
    expect(inQuery.status).toBe(400);
    expect(inQuery.json.error.details.problems).toEqual([
      { path: "query.id", message: "'id' is given in the path" },
    ]);
    const inBody = await t.api("PUT", "/flows/a", { body: { id: "b", name: "x" } });
    expect(inBody.json.error.details.problems).toEqual([
      { path: "body.id", message: "'id' is given in the path" },
    ]);
    const proto = await t.api("GET", "/flows?__proto__=x");
    expect(proto.status).toBe(400);
    expect(proto.json.error.details.problems).toEqual([
      { path: "query.__proto__", message: "unknown query parameter '__proto__'" },
    ]);
  });

  it("answers 415 for a body that is not JSON", async () => {
    const res = await t.api("POST", "/flows", {
      raw: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expect(res.json.error.code).toBe("unsupported_media_type");
  });

  it("answers 413 for a body over the limit", async () => {
    const res = await t.api("POST", "/memory/items", {
      raw: JSON.stringify({ key: "big", content: "x".repeat(6 * 1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe("payload_too_large");
  });

  it("answers 413 for a chunked body (no content-length) once it passes the limit, and keeps serving", async () => {
    // Never ended: the answer must come as soon as the limit is passed.
    const { status, body } = await postEndlessBody(`${t.url}/api/v1/memory/items`, {
      headers: { "content-type": "application/json", authorization: `Bearer ${t.keys.owner}` },
      chunkBytes: 1024 * 1024,
    });
    expect(status).toBe(413);
    expect(JSON.parse(body).error.code).toBe("payload_too_large");
    expect((await t.api("GET", "/flows")).status).toBe(200);
  });

  it("answers 405 with Allow for a known path and the wrong method, 404 for an unknown path", async () => {
    const wrong = await t.api("PATCH", "/flows");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, POST");
    const unknown = await t.api("GET", "/nothing/here");
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe("not_found");
  });
});
