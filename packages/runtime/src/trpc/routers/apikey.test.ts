import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeEach(async () => {
  t = await testCaller({ seed: false });
});
afterEach(async () => {
  await t.cleanup();
});

describe("API keys over tRPC", () => {
  it("shows a new key once and lists it afterwards by prefix only", async () => {
    const { key, apiKey } = await t.caller.apiKey.create({ name: "deploy", scopes: ["read"] });
    expect(key.startsWith(`sy_${apiKey.prefix}_`)).toBe(true);
    const listed = await t.caller.apiKey.list();
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(listed[0]).toMatchObject({
      name: "deploy",
      prefix: apiKey.prefix,
      scopes: ["read"],
      revokedAt: null,
    });
  });

  it("accepts a key as Bearer or X-API-Key, limited by its scopes and its owner's role", async () => {
    const editor = await t.as("editor");
    const read = await editor.caller.apiKey.create({ name: "r", scopes: ["read"] });
    const write = await editor.caller.apiKey.create({ name: "w", scopes: ["read", "write"] });
    const readCaller = await t.withHeaders({ authorization: `Bearer ${read.key}` });
    const writeCaller = await t.withHeaders({ "x-api-key": write.key });
    await expect(readCaller.flow.list()).resolves.toEqual([]);
    await expect(readCaller.flow.create({ name: "x", definition: {} })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "this API key lacks the write scope",
    });
    await writeCaller.flow.create({ name: "x", definition: {} });
    // The key is the editor's: owner-only procedures stay closed.
    await expect(writeCaller.user.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await editor.caller.apiKey.list()).find((k) => k.name === "w")?.lastUsedAt).not.toBeNull();
  });

  it("does not let a key mint keys or change the password: that needs a signed-in session", async () => {
    const { key } = await t.caller.apiKey.create({ name: "ci", scopes: ["read", "write"] });
    const viaKey = await t.withHeaders({ authorization: `Bearer ${key}` });
    await expect(viaKey.apiKey.create({ name: "more", scopes: ["write"] })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      viaKey.user.create({ email: "x@example.com", password: "long enough pw", role: "owner" }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("stops accepting a revoked key", async () => {
    const { key, apiKey } = await t.caller.apiKey.create({ name: "ci", scopes: ["read"] });
    await t.caller.apiKey.revoke({ id: apiKey.id });
    await expect((await t.withHeaders({ "x-api-key": key })).flow.list()).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect((await t.caller.apiKey.list())[0]?.revokedAt).not.toBeNull();
  });

  it("keeps people to their own keys; owners see and revoke everyone's", async () => {
    const editor = await t.as("editor");
    const viewer = await t.as("viewer");
    const ownerKey = await t.caller.apiKey.create({ name: "owner's", scopes: ["read"] });
    const editorKey = await editor.caller.apiKey.create({ name: "editor's", scopes: ["read"] });
    expect((await editor.caller.apiKey.list()).map((k) => k.name)).toEqual(["editor's"]);
    await expect(editor.caller.apiKey.list({ all: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(editor.caller.apiKey.revoke({ id: ownerKey.apiKey.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect((await t.caller.apiKey.list())[0]?.revokedAt).toBeNull();

    await expect(viewer.caller.apiKey.create({ name: "v", scopes: ["read", "write"] })).rejects.toMatchObject(
      { code: "FORBIDDEN" },
    );
    await viewer.caller.apiKey.create({ name: "v", scopes: ["read"] });

    expect((await t.caller.apiKey.list({ all: true })).map((k) => k.name).sort()).toEqual([
      "editor's",
      "owner's",
      "v",
    ]);
    await t.caller.apiKey.revoke({ id: editorKey.apiKey.id });
    expect((await editor.caller.apiKey.list())[0]?.revokedAt).not.toBeNull();
  });

  it("names the field of a bad request", async () => {
    await expect(t.caller.apiKey.create({ name: "  ", scopes: ["read"] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { field: "name", message: "give the key a name" },
    });
  });
});
