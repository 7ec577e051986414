import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkAuthBeforeBody, checkSignature, safeEqual } from "./auth";

describe("webhook auth", () => {
  it("accepts GitHub's published X-Hub-Signature-256 test vector and refuses a tampered body", () => {
    const auth = {
      type: "hmac",
      preset: "github",
      header: "X-Hub-Signature-256",
      secret: "It's a Secret to Everybody",
    } as const;
    const headers = {
      "x-hub-signature-256": "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
    };
    expect(checkSignature(auth, headers, Buffer.from("Hello, World!"), Date.now())).toBe(true);
    expect(checkSignature(auth, headers, Buffer.from("Hello, World?"), Date.now())).toBe(false);
    expect(checkSignature(auth, {}, Buffer.from("Hello, World!"), Date.now())).toBe(false);
  });

  it("checks Stripe-style signatures with a timestamp tolerance", () => {
    const auth = {
      type: "hmac",
      preset: "stripe",
      header: "Stripe-Signature",
      secret: "whsec_test",
      toleranceSec: 300,
    } as const;
    const now = Date.parse("2026-11-30T12:00:00Z");
    const ts = Math.floor(now / 1000);
    const body = Buffer.from('{"id":"evt_1"}');
    const sig = createHmac("sha256", "whsec_test").update(`${ts}.${body}`).digest("hex");
    const headers = { "stripe-signature": `t=${ts},v1=deadbeef,v1=${sig}` };
    expect(checkSignature(auth, headers, body, now)).toBe(true);
    expect(checkSignature(auth, headers, body, now + 301_000)).toBe(false);
    expect(checkSignature(auth, { "stripe-signature": `t=${ts},v1=deadbeef` }, body, now)).toBe(false);
    expect(checkSignature(auth, { "stripe-signature": `v1=${sig}` }, body, now)).toBe(false);
  });

  it("checks a header token and basic credentials", () => {
    expect(
      checkAuthBeforeBody({ type: "header", name: "X-Token", secret: "abc" }, { "x-token": "abc" }),
    ).toBe(true);
    expect(
      checkAuthBeforeBody({ type: "header", name: "X-Token", secret: "abc" }, { "x-token": "abd" }),
    ).toBe(false);
    expect(checkAuthBeforeBody({ type: "header", name: "X-Token", secret: "abc" }, {})).toBe(false);
    const basic = { type: "basic", user: "ada", password: "p:w" } as const;
    const hdr = (u: string) => ({ authorization: `Basic ${Buffer.from(u).toString("base64")}` });
    expect(checkAuthBeforeBody(basic, hdr("ada:p:w"))).toBe(true);
    expect(checkAuthBeforeBody(basic, hdr("ada:p:x"))).toBe(false);
    expect(checkAuthBeforeBody(basic, hdr("bob:p:w"))).toBe(false);
    expect(checkAuthBeforeBody(basic, { authorization: "Bearer x" })).toBe(false);
  });

  it("never matches an empty expected secret, user or password, even against a request that sends nothing", () => {
    expect(checkAuthBeforeBody({ type: "header", name: "X-Token", secret: "" }, {})).toBe(false);
    expect(checkAuthBeforeBody({ type: "header", name: "X-Token", secret: "" }, { "x-token": "" })).toBe(
      false,
    );
    expect(checkAuthBeforeBody({ type: "basic", user: "", password: "" }, {})).toBe(false);
    expect(
      checkAuthBeforeBody(
        { type: "basic", user: "ada", password: "" },
        { authorization: `Basic ${Buffer.from("ada:").toString("base64")}` },
      ),
    ).toBe(false);
    const empty = createHmac("sha256", "").update("{}").digest("hex");
    expect(
      checkSignature(
        { type: "hmac", preset: "custom", header: "X-Sig", secret: "" },
        { "x-sig": empty },
        Buffer.from("{}"),
        Date.now(),
      ),
    ).toBe(false);
  });

  it("checks a custom HMAC's signed timestamp header against toleranceSec", () => {
    const auth = {
      type: "hmac",
      preset: "custom",
      header: "X-Sig",
      secret: "k",
      timestampHeader: "X-Ts",
      toleranceSec: 60,
    } as const;
    const now = Date.parse("2026-11-30T12:00:00Z");
    const ts = String(Math.floor(now / 1000));
    const body = Buffer.from('{"id":1}');
    const sig = createHmac("sha256", "k").update(`${ts}.${body}`).digest("hex");
    expect(checkSignature(auth, { "x-sig": sig, "x-ts": ts }, body, now)).toBe(true);
    // Replayed later than the tolerance, with the timestamp changed, or without it: refused.
    expect(checkSignature(auth, { "x-sig": sig, "x-ts": ts }, body, now + 61_000)).toBe(false);
    expect(checkSignature(auth, { "x-sig": sig, "x-ts": String(Number(ts) + 30) }, body, now + 30_000)).toBe(
      false,
    );
    expect(checkSignature(auth, { "x-sig": sig }, body, now)).toBe(false);
    // A signature over the body alone does not pass once a timestamp header is configured.
    const bodyOnly = createHmac("sha256", "k").update(body).digest("hex");
    expect(checkSignature(auth, { "x-sig": bodyOnly, "x-ts": ts }, body, now)).toBe(false);
    // Without a tolerance the default window (300 s) applies.
    const { toleranceSec: _t, ...defaults } = auth;
    expect(checkSignature(defaults, { "x-sig": sig, "x-ts": ts }, body, now + 299_000)).toBe(true);
    expect(checkSignature(defaults, { "x-sig": sig, "x-ts": ts }, body, now + 301_000)).toBe(false);
  });

  it("compares without revealing length differences as a shortcut", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });
});
