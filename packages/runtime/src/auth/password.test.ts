import { describe, expect, it } from "vitest";
import { tempAuth } from "./__tests__/temp-auth";
import { hashPassword, needsRehash, scryptParams, verifyPassword } from "./password";

const cheap = { ...scryptParams, N: 2 ** 10 };
// Tests that hash at the real cost run four or five scrypt calls of 128 MiB each: ≈ 1.5 s on an idle 2-core
// machine, over Vitest's 5 s default when the machine is busy (CI once failed so).
const REAL_COST_MS = 60_000;

describe("password hashing", () => {
  it(
    "hashes at OWASP's scrypt cost (N=2^17, r=8, p=1) with a 16-byte salt and verifies only the right password",
    async () => {
      const h = await hashPassword("correct horse battery");
      const [alg, N, r, p, salt] = h.split("$");
      expect([alg, N, r, p]).toEqual(["scrypt", "131072", "8", "1"]);
      expect(Buffer.from(salt!, "base64")).toHaveLength(16);
      expect(await verifyPassword("correct horse battery", h)).toBe(true);
      expect(await verifyPassword("correct horse batterY", h)).toBe(false);
    },
    REAL_COST_MS,
  );

  it("salts every hash differently", async () => {
    expect(await hashPassword("same password here", cheap)).not.toBe(
      await hashPassword("same password here", cheap),
    );
  });

  it("never matches a malformed or tampered hash, including absurd cost parameters", async () => {
    expect(await verifyPassword("x", "")).toBe(false);
    expect(await verifyPassword("x", "bcrypt$2b$xx")).toBe(false);
    expect(
      await verifyPassword(
        "x",
        `scrypt$${2 ** 30}$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`,
      ),
    ).toBe(false);
    expect(
      await verifyPassword("x", "scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAA=="),
    ).toBe(false);
  });

  it(
    "asks for a re-hash when the stored parameters are weaker than today's",
    async () => {
      expect(needsRehash(await hashPassword("a long enough password"))).toBe(false);
      expect(needsRehash("scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAA==")).toBe(true);
      // Hashes made before the cost went up (2^15) still verify; sign-in then re-hashes them.
      const old = await hashPassword("a long enough password", { ...scryptParams, N: 2 ** 15 });
      expect(await verifyPassword("a long enough password", old)).toBe(true);
      expect(needsRehash(old)).toBe(true);
    },
    REAL_COST_MS,
  );
});

describe("sign-in with a hash from before the cost went up", () => {
  it(
    "accepts the old 2^15 hash and stores the password again at 2^17",
    async () => {
      const t = tempAuth({ scrypt: scryptParams });
      try {
        const password = "an older owner password";
        const user = await t.auth.createUser(
          null,
          { email: "old@example.com", password, role: "owner" },
          "test",
        );
        const old = await hashPassword(password, { ...scryptParams, N: 2 ** 15 });
        await t.db.prisma.user.update({ where: { id: user.id }, data: { passwordHash: old } });
        await t.auth.signIn({ email: "old@example.com", password, ip: "127.0.0.1" });
        const stored = (await t.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash;
        expect(stored.split("$").slice(0, 4)).toEqual(["scrypt", "131072", "8", "1"]);
        expect(await verifyPassword(password, stored)).toBe(true);
      } finally {
        await t.cleanup();
      }
    },
    REAL_COST_MS,
  );
});
