import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempAuth } from "./__tests__/temp-auth";
import { sessionTtlMs } from "./sessions";
import { sha256 } from "./tokens";

let t: ReturnType<typeof tempAuth>;
beforeEach(() => {
  t = tempAuth();
});
afterEach(async () => {
  await t.cleanup();
});

const owner = { email: "Owner@Example.com", password: "owner password 1" };
/** A browser on this machine: setup needs no token (the token itself is tested in "setup token"). */
const local = { local: true };
const actions = async () =>
  (await t.db.prisma.auditLog.findMany({ orderBy: { id: "asc" } })).map((a) => a.action);

describe("first start", () => {
  it("creates the owner once, signs them in, and refuses a second setup", async () => {
    expect(await t.auth.hasUsers()).toBe(false);
    const s = await t.auth.setup(owner, local);
    expect(s.user).toMatchObject({ email: "owner@example.com", role: "owner" });
    expect((await t.auth.session(s.token))?.user.id).toBe(s.user.id);
    await expect(
      t.auth.setup({ email: "b@example.com", password: "another password" }, local),
    ).rejects.toMatchObject({
      name: "AuthError",
      code: "already_set_up",
    });
    expect(await t.db.prisma.user.count()).toBe(1);
  });

  it("lets only one of several simultaneous setups win", async () => {
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map((i) =>
        t.auth.setup({ email: `o${i}@example.com`, password: "owner password 1" }, local),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await t.db.prisma.user.count()).toBe(1);
  });

  it("rejects a short password at the password field and writes nothing", async () => {
    await expect(t.auth.setup({ email: "a@example.com", password: "short" }, local)).rejects.toMatchObject({
      code: "invalid_input",
      field: "password",
      message: "password must be at least 12 characters",
    });
    await expect(
      t.auth.setup({ email: "not-an-email", password: "long enough password" }, local),
    ).rejects.toMatchObject({
      field: "email",
      message: "enter a valid e-mail address",
    });
    expect(await t.db.prisma.user.count()).toBe(0);
  });
});

describe("sign-in and sessions", () => {
  it("stores only the SHA-256 of the session token and ends the session on sign-out", async () => {
    await t.auth.setup(owner, local);
    const s = await t.auth.signIn({ ...owner, ip: "1.2.3.4" });
    const row = await t.db.prisma.session.findFirst({ where: { tokenHash: sha256(s.token) } });
    expect(row).not.toBeNull();
    expect(await t.db.prisma.session.count({ where: { tokenHash: s.token } })).toBe(0);
    expect(Buffer.from(s.token, "base64url")).toHaveLength(32);
    await t.auth.signOut(s.token, s.user.id);
    expect(await t.auth.session(s.token)).toBeNull();
    expect(await t.db.prisma.session.count({ where: { tokenHash: sha256(s.token) } })).toBe(0);
  });

  it("answers the same generic error for an unknown user and a wrong password, and audits both", async () => {
    await t.auth.setup(owner, local);
    await expect(
      t.auth.signIn({ email: "nobody@example.com", password: "whatever pass", ip: "1.1.1.1" }),
    ).rejects.toMatchObject({ code: "invalid_credentials", message: "invalid e-mail or password" });
    await expect(
      t.auth.signIn({ email: owner.email, password: "wrong password!", ip: "1.1.1.1" }),
    ).rejects.toMatchObject({ code: "invalid_credentials", message: "invalid e-mail or password" });
    const failed = await t.db.prisma.auditLog.findMany({ where: { action: "auth.signin.failed" } });
    expect(failed.map((f) => JSON.parse(f.details!).reason).sort()).toEqual([
      "unknown_user",
      "wrong_password",
    ]);
  });

  it("expires a session after 30 days", async () => {
    const s = await t.auth.setup(owner, local);
    t.clock.t += sessionTtlMs - 1000;
    expect(await t.auth.session(s.token)).not.toBeNull();
    t.clock.t += 2000;
    expect(await t.auth.session(s.token)).toBeNull();
    expect(await t.db.prisma.session.count()).toBe(0);
  });

  it("sweeps sessions that expired without their cookie coming back when someone signs in", async () => {
    await t.auth.setup(owner, local);
    t.clock.t += sessionTtlMs + 1;
    const fresh = await t.auth.signIn({ ...owner, ip: "1.2.3.4" });
    expect((await t.db.prisma.session.findMany()).map((r) => r.tokenHash)).toEqual([sha256(fresh.token)]);
  });

  it("ends every other session when the password changes, keeping the one that changed it", async () => {
    const first = await t.auth.setup(owner, local);
    const second = await t.auth.signIn({ ...owner, ip: "1.2.3.4" });
    await expect(
      t.auth.changePassword(
        first.user.id,
        { current: "not it at all", next: "a new password 2" },
        first.token,
      ),
    ).rejects.toMatchObject({ code: "invalid_credentials", field: "current" });
    await t.auth.changePassword(
      first.user.id,
      { current: owner.password, next: "a new password 2" },
      first.token,
    );
    expect(await t.auth.session(first.token)).not.toBeNull();
    expect(await t.auth.session(second.token)).toBeNull();
    await expect(t.auth.signIn({ ...owner, ip: "1.2.3.4" })).rejects.toMatchObject({
      code: "invalid_credentials",
    });
    await t.auth.signIn({ email: owner.email, password: "a new password 2", ip: "1.2.3.4" });
  });

  it("locks an e-mail after five failures so even the right password waits, then lets it in", async () => {
    await t.auth.setup(owner, local);
    for (let i = 0; i < 5; i++) {
      await expect(
        t.auth.signIn({ email: owner.email, password: "wrong password!", ip: `10.0.0.${i}` }),
      ).rejects.toMatchObject({
        code: "invalid_credentials",
      });
    }
    await expect(t.auth.signIn({ ...owner, ip: "10.0.0.9" })).rejects.toMatchObject({
      code: "throttled",
      retryAfterMs: 1000,
    });
    t.clock.t += 1000;
    await t.auth.signIn({ ...owner, ip: "10.0.0.9" });
    expect(await actions()).toContain("auth.signin.throttled");
  });

  it("locks an IP that tries many different e-mail addresses", async () => {
    const ip = "203.0.113.7";
    for (let i = 0; i < 20; i++) {
      await expect(
        t.auth.signIn({ email: `u${i}@example.com`, password: "whatever pass", ip }),
      ).rejects.toMatchObject({
        code: "invalid_credentials",
      });
    }
    await expect(
      t.auth.signIn({ email: "u99@example.com", password: "whatever pass", ip }),
    ).rejects.toMatchObject({ code: "throttled" });
    await expect(
      t.auth.signIn({ email: "u99@example.com", password: "whatever pass", ip: "198.51.100.1" }),
    ).rejects.toMatchObject({
      code: "invalid_credentials",
    });
  });
});

describe("users and roles", () => {
  it("never leaves the instance without an owner", async () => {
    const { user } = await t.auth.setup(owner, local);
    await expect(t.auth.setRole(user.id, user.id, "editor")).rejects.toMatchObject({ code: "last_owner" });
    await expect(t.auth.deleteUser(user.id, user.id)).rejects.toMatchObject({ code: "last_owner" });
    const second = await t.auth.createUser(user.id, {
      email: "b@example.com",
      password: "second password",
      role: "owner",
    });
    await t.auth.setRole(user.id, user.id, "viewer");
    await expect(t.auth.deleteUser(second.id, second.id)).rejects.toMatchObject({ code: "last_owner" });
    expect((await t.auth.getUser(user.id))?.role).toBe("viewer");
  });

  it("refuses a duplicate e-mail at the e-mail field", async () => {
    const { user } = await t.auth.setup(owner, local);
    await expect(
      t.auth.createUser(user.id, { email: "OWNER@example.com", password: "second password" }),
    ).rejects.toMatchObject({
      code: "email_taken",
      field: "email",
    });
  });

  it("removes a deleted user's sessions and API keys and audits the change", async () => {
    const { user } = await t.auth.setup(owner, local);
    const ed = await t.auth.createUser(user.id, {
      email: "ed@example.com",
      password: "editor password",
      role: "editor",
    });
    const s = await t.auth.signIn({ email: "ed@example.com", password: "editor password", ip: "1.1.1.1" });
    const { key } = await t.auth.createApiKey(ed.id, ed.id, { name: "ci", scopes: ["read"] });
    await t.auth.deleteUser(user.id, ed.id);
    expect(await t.auth.session(s.token)).toBeNull();
    expect(await t.auth.authenticateRequest(new Headers({ "x-api-key": key }))).toBeNull();
    expect(await actions()).toEqual(
      expect.arrayContaining(["user.created", "apikey.created", "user.deleted"]),
    );
  });
});

describe("API keys", () => {
  it("shows the key once, stores its hash, authenticates it by either header and records use", async () => {
    const { user } = await t.auth.setup(owner, local);
    const { key, apiKey } = await t.auth.createApiKey(user.id, user.id, {
      name: "deploy",
      scopes: ["write", "read", "read"],
    });
    expect(key).toMatch(new RegExp(`^sy_${apiKey.prefix}_[A-Za-z0-9_-]{43}$`));
    expect(apiKey.scopes).toEqual(["read", "write"]);
    const row = await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(row.keyHash).toBe(sha256(key));
    // The secret is everything after `sy_<prefix>_` (base64url may itself contain "_").
    expect(JSON.stringify(row)).not.toContain(key.split("_").slice(2).join("_"));

    const viaBearer = await t.auth.authenticateRequest(new Headers({ authorization: `Bearer ${key}` }));
    expect(viaBearer).toMatchObject({ via: "apikey", scopes: ["read", "write"], user: { id: user.id } });
    expect(await t.auth.authenticateRequest({ "x-api-key": key })).toMatchObject({ via: "apikey" });
    expect((await t.auth.getApiKey(apiKey.id))?.lastUsedAt).not.toBeNull();
  });

  it("stops accepting a revoked or altered key", async () => {
    const { user } = await t.auth.setup(owner, local);
    const { key, apiKey } = await t.auth.createApiKey(user.id, user.id, { name: "deploy", scopes: ["read"] });
    const altered = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    expect(await t.auth.authenticateRequest({ authorization: `Bearer ${altered}` })).toBeNull();
    await t.auth.revokeApiKey(user.id, apiKey.id);
    expect(await t.auth.authenticateRequest({ authorization: `Bearer ${key}` })).toBeNull();
    expect(await actions()).toContain("apikey.revoked");
  });

  it("refuses a key without scopes at the scopes field", async () => {
    const { user } = await t.auth.setup(owner, local);
    await expect(t.auth.createApiKey(user.id, user.id, { name: "x", scopes: [] })).rejects.toMatchObject({
      field: "scopes",
    });
    expect(await t.db.prisma.apiKey.count()).toBe(0);
  });

  it("reads the session cookie when no key is presented", async () => {
    const s = await t.auth.setup(owner, local);
    const got = await t.auth.authenticateRequest({ cookie: `theme=dark; sy_session=${s.token}` });
    expect(got).toMatchObject({ via: "session", scopes: ["read", "write"], sessionToken: s.token });
    expect(await t.auth.authenticateRequest({ cookie: "sy_session=bogus" })).toBeNull();
    expect(await t.auth.authenticateRequest({})).toBeNull();
  });
});
