import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { owner, testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeEach(async () => {
  t = await testCaller({ seed: false });
});
afterEach(async () => {
  await t.cleanup();
});

describe("user management", () => {
  it("lets the owner create a user who can then sign in with that role", async () => {
    const created = await t.caller.user.create({
      email: "Ed@Example.com",
      password: "editor password",
      name: "Ed",
      role: "editor",
    });
    expect(created).toMatchObject({ email: "ed@example.com", role: "editor", name: "Ed" });
    expect(created).not.toHaveProperty("passwordHash");
    const s = await t.host.auth.signIn({
      email: "ed@example.com",
      password: "editor password",
      ip: "127.0.0.1",
    });
    expect(s.user.role).toBe("editor");
    expect((await t.caller.user.list()).map((u) => u.email)).toEqual([owner.email, "ed@example.com"]);
  });

  it("applies a role change on the user's next request and ends access on delete", async () => {
    const ed = await t.as("editor");
    await ed.caller.flow.create({ name: "a", definition: {} });
    await t.caller.user.setRole({ id: ed.user.id, role: "viewer" });
    await expect(ed.caller.flow.create({ name: "b", definition: {} })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await t.caller.user.delete({ id: ed.user.id });
    await expect(ed.caller.flow.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("refuses to remove the last owner or the owner's own account", async () => {
    await expect(t.caller.user.setRole({ id: t.ownerUser.id, role: "editor" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "there must always be at least one owner",
    });
    await expect(t.caller.user.delete({ id: t.ownerUser.id })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await t.caller.user.list())[0]?.role).toBe("owner");
  });

  it("reports a taken address and a short password at their fields", async () => {
    await expect(
      t.caller.user.create({ email: owner.email, password: "long enough pw", role: "viewer" }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      cause: { field: "email" },
    });
    await expect(
      t.caller.user.create({ email: "v@example.com", password: "short", role: "viewer" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { field: "password" },
    });
    expect(await t.host.db.prisma.user.count()).toBe(1);
  });
});

describe("audit log", () => {
  it("records sign-ins, user and key changes, and entries the rest of the app adds", async () => {
    await t.host.auth
      .signIn({ email: owner.email, password: "wrong password", ip: "10.1.1.1" })
      .catch(() => {});
    const ed = await t.as("editor");
    await t.caller.user.setRole({ id: ed.user.id, role: "viewer" });
    const { apiKey } = await t.caller.apiKey.create({ name: "k", scopes: ["read"] });
    await t.caller.apiKey.revoke({ id: apiKey.id });
    await t.caller.user.delete({ id: ed.user.id });
    await t.host.auth.audit(t.ownerUser.id, "flow.saved", "flow-1", { version: 2 });

    const { entries } = await t.caller.audit.list();
    expect(entries.map((e) => e.action)).toEqual([
      "flow.saved",
      "user.deleted",
      "apikey.revoked",
      "apikey.created",
      "user.role_changed",
      "auth.signin.succeeded",
      "user.created",
      "auth.signin.failed",
      "user.created",
    ]);
    expect(entries[0]).toMatchObject({ actorEmail: owner.email, target: "flow-1", details: { version: 2 } });
    expect(entries[4]).toMatchObject({ details: { from: "editor", to: "viewer" } });
    expect(JSON.stringify(entries)).not.toContain("wrong password");
  });

  it("pages through the log newest first", async () => {
    for (let i = 0; i < 5; i++) await t.host.auth.audit(null, "test.entry", String(i));
    const first = await t.caller.audit.list({ limit: 3, action: "test.entry" });
    const second = await t.caller.audit.list({ limit: 3, action: "test.entry", cursor: first.nextCursor! });
    expect([...first.entries, ...second.entries].map((e) => e.target)).toEqual(["4", "3", "2", "1", "0"]);
    expect(second.nextCursor).toBeNull();
  });
});
