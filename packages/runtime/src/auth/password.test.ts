import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "./password";

describe("password hashing", () => {
  it("stores scrypt parameters and a 16-byte salt in the hash and verifies only the right password", async () => {
    const h = await hashPassword("correct horse battery");
    const [alg, N, r, p, salt] = h.split("$");
    expect([alg, N, r, p]).toEqual(["scrypt", "32768", "8", "1"]);
    expect(Buffer.from(salt!, "base64")).toHaveLength(16);
    expect(await verifyPassword("correct horse battery", h)).toBe(true);
    expect(await verifyPassword("correct horse batterY", h)).toBe(false);
  });

  it("salts every hash differently", async () => {
    expect(await hashPassword("same password here")).not.toBe(await hashPassword("same password here"));
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

  it("asks for a re-hash when the stored parameters are weaker than today's", async () => {
    expect(needsRehash(await hashPassword("a long enough password"))).toBe(false);
    expect(needsRehash("scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAA==")).toBe(true);
  });
});
