import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";
import { appRouter } from "./app";

/** The only procedures an anonymous caller may reach. Adding one here needs a reason. */
const publicPaths = ["auth.setup", "auth.signIn", "auth.status"];
/** Mutations a viewer may call: they only touch the viewer's own session, password and keys. */
const selfServiceMutations = ["apiKey.create", "apiKey.revoke", "auth.changePassword", "auth.signOut"];
/** Mutations only in transport (a flow definition is too big for a GET URL): they write nothing. */
const readOnlyMutations = ["flow.validate"];
/** Owner-only areas: editors are refused too. */
const ownerOnlyPrefixes = ["user.", "audit."];

type AnyCaller = Record<string, unknown>;
// At run time `procedures` is flat, keyed by dotted path (its static type is the nested record).
const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>,
);

function call(caller: unknown, path: string): Promise<unknown> {
  const fn = path.split(".").reduce<unknown>((node, key) => (node as AnyCaller)[key], caller) as (
    input?: unknown,
  ) => Promise<unknown>;
  return fn(undefined);
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "OK";
  } catch (e) {
    return (e as { code?: string }).code ?? "THREW";
  }
}

let t: Awaited<ReturnType<typeof testCaller>>;
beforeAll(async () => {
  t = await testCaller({ seed: false });
});
afterAll(async () => {
  await t.cleanup();
});

describe("access control over every procedure", () => {
  it("has no lazy routers that would escape this enumeration", () => {
    expect(Object.keys(appRouter._def.lazy)).toEqual([]);
    expect(procedures.length).toBeGreaterThan(15);
  });

  it("refuses an anonymous caller everywhere except the documented public procedures", async () => {
    const reachable: string[] = [];
    for (const [path] of procedures) {
      const code = await codeOf(call(t.anonymous, path));
      if (code !== "UNAUTHORIZED") reachable.push(path);
    }
    expect(reachable.sort()).toEqual(publicPaths);
  });

  it("refuses an anonymous caller that presents a bogus cookie or API key", async () => {
    const bogusCookie = await t.withHeaders({ cookie: "sy_session=not-a-real-session-token" });
    const bogusKey = await t.withHeaders({
      authorization: "Bearer sy_00000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    });
    await expect(bogusCookie.flow.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(bogusKey.flow.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("refuses every mutation to a viewer except self-service on their own account", async () => {
    const viewer = await t.as("viewer");
    const mutations = procedures.filter(([, p]) => p._def.type === "mutation").map(([path]) => path);
    for (const path of selfServiceMutations) expect(mutations).toContain(path);
    for (const path of readOnlyMutations) expect(mutations).toContain(path);
    const allowed = [...selfServiceMutations, ...readOnlyMutations, ...publicPaths];
    for (const path of mutations.filter((m) => !allowed.includes(m))) {
      expect({ path, code: await codeOf(call(viewer.caller, path)) }).toEqual({ path, code: "FORBIDDEN" });
    }
  });

  it("refuses users, and the audit log to editors", async () => {
    const editor = await t.as("editor");
    const ownerOnly = procedures
      .map(([p]) => p)
      .filter((p) => ownerOnlyPrefixes.some((prefix) => p.startsWith(prefix)));
    expect(ownerOnly.length).toBeGreaterThanOrEqual(5);
    for (const path of ownerOnly) {
      expect({ path, code: await codeOf(call(editor.caller, path)) }).toEqual({ path, code: "FORBIDDEN" });
    }
  });

  it("lets viewers read flows and runs, and editors build them", async () => {
    const viewer = await t.as("viewer");
    const editor = await t.as("editor");
    const { id } = await editor.caller.flow.create({ name: "Orders", definition: { nodes: [] } });
    expect((await viewer.caller.flow.list()).map((f) => f.id)).toEqual([id]);
    expect((await viewer.caller.run.list()).runs).toEqual([]);
    await expect(viewer.caller.flow.save({ id, definition: {} })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await editor.caller.flow.rename({ id, name: "Orders v2" });
  });
});

describe("cross-site requests", () => {
  it("refuses cookie-authenticated writes from another origin or without an Origin", async () => {
    const cookie = `sy_session=${t.ownerToken}`;
    const before = await t.host.flows.count();
    const evil = await t.withHeaders({ cookie, origin: "https://evil.example" });
    const noOrigin = await t.withHeaders({ cookie, origin: "" });
    await expect(evil.flow.create({ name: "x", definition: {} })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "cross-site request refused",
    });
    // Reads stay possible (they change nothing), so a cross-site GET learns nothing it can see anyway.
    await expect(noOrigin.flow.create({ name: "x", definition: {} })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(evil.flow.list()).resolves.toBeDefined();
    await expect(
      evil.auth.signIn({ email: "owner@example.com", password: "owner password 1" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await t.host.flows.count()).toBe(before);
  });

  it("accepts Sec-Fetch-Site: same-origin and exempts API-key requests", async () => {
    const viaFetchMetadata = await t.withHeaders({
      cookie: `sy_session=${t.ownerToken}`,
      origin: "",
      "sec-fetch-site": "same-origin",
    });
    await viaFetchMetadata.flow.create({ name: "a", definition: {} });
    const { key } = await t.caller.apiKey.create({ name: "ci", scopes: ["read", "write"] });
    const viaKey = await t.withHeaders({ "x-api-key": key, origin: "https://elsewhere.example" });
    await viaKey.flow.create({ name: "b", definition: {} });
    expect((await t.caller.flow.list()).length).toBeGreaterThanOrEqual(2);
  });
});
