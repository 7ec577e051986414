import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkAuthBeforeBody, checkSignature, safeEqual } from "./auth";

describe("webhook auth", () => {
  it("accepts GitHub's published X-Hub-Signature-256 test vector and refuses a tampered body", () => {
    const auth = { type: "hmac", preset: "github", header: "X-Hub-Signature-256", secret: "It's a Secret to Everybody" } as const;
    const headers = { "x-hub-signature-256": "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17" };
    expect(checkSignature(auth, headers, Buffer.from("Hello, World!"), Date.now())).toBe(true);
    expect(checkSignature(auth, headers, Buffer.from("Hello, World?"), Date.now())).toBe(false);
    expect(checkSignature(auth, {}, Buffer.from("Hello, World!"), Date.now())).toBe(false);
  });

  it("checks Stripe-style signatures with a timestamp tolerance", () => {
    const auth = { type: "hmac", preset: "stripe", header: "Stripe-Signature", secret: "whsec_test", toleranceSec: 300 } as const;
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
    expect(checkAuthBeforeBody({ type: "header", name: "X-Token", secret: "abc" }, { "x-token": "abc" })).toBe(true);
    expect(checkAuthBeforeBody({ type: "header", name: "X-Token", secret: "abc" }, { "x-token": "abd" })).toBe(false);
    expect(checkAuthBeforeBody({ type: "header", name: "X-Token", secret: "abc" }, {})).toBe(false);
    const basic = { type: "basic", user: "ada", password: "p:w" } as const;
    const hdr = (u: string) => ({ authorization: `Basic ${Buffer.from(u).toString("base64")}` });
    expect(checkAuthBeforeBody(basic, hdr("ada:p:w"))).toBe(true);
    expect(checkAuthBeforeBody(basic, hdr("ada:p:x"))).toBe(false);
    expect(checkAuthBeforeBody(basic, hdr("bob:p:w"))).toBe(false);
    expect(checkAuthBeforeBody(basic, { authorization: "Bearer x" })).toBe(false);
  });

  it("compares without revealing length differences as a shortcut", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });
});
