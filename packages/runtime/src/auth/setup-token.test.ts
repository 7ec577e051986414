import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempAuth } from "./__tests__/temp-auth";

let t: ReturnType<typeof tempAuth>;
beforeEach(() => {
  t = tempAuth();
});
afterEach(async () => {
  await t.cleanup();
});

const owner = { email: "owner@example.com", password: "owner password 1" };

describe("setup token", () => {
  it("refuses first-run setup from another machine without the token, and creates no one", async () => {
    await expect(t.auth.setup(owner, { local: false })).rejects.toMatchObject({
      name: "AuthError",
      code: "setup_token_required",
      message:
        "setting up from another machine needs the setup link printed on the server's console at start (…/setup?token=…)",
    });
    expect(await t.db.prisma.user.count()).toBe(0);
  });

  it("refuses a wrong token, one of the same length included", async () => {
    const real = (await t.auth.pendingSetupToken())!;
    const sameLength = real.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    for (const token of ["guess", sameLength, `${real}x`]) {
      await expect(t.auth.setup(owner, { local: false, token })).rejects.toMatchObject({
        code: "setup_token_invalid",
        message:
          "the setup token is wrong; open the setup link printed on the server's console at its latest start",
      });
    }
    expect(await t.db.prisma.user.count()).toBe(0);
  });

  it("accepts the printed token from another machine, after which the token is spent", async () => {
    const token = await t.auth.pendingSetupToken();
    // base64url of 32 random bytes: 256 bits, far beyond guessing.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const s = await t.auth.setup(owner, { local: false, token });
    expect(s.user.role).toBe("owner");
    expect(await t.auth.pendingSetupToken()).toBeNull();
    await expect(
      t.auth.setup({ email: "second@example.com", password: "owner password 2" }, { local: false, token }),
    ).rejects.toMatchObject({ code: "already_set_up" });
  });

  it("needs no token from a browser on this machine", async () => {
    const s = await t.auth.setup(owner, { local: true });
    expect(s.user.email).toBe("owner@example.com");
  });

  it("is a new token for every service (every start)", async () => {
    const other = tempAuth();
    try {
      expect(await other.auth.pendingSetupToken()).not.toBe(await t.auth.pendingSetupToken());
    } finally {
      await other.cleanup();
    }
  });
});
