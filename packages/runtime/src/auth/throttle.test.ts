import { describe, expect, it } from "vitest";
import { createThrottle } from "./throttle";

const rule = { threshold: 5, baseDelayMs: 1_000, maxDelayMs: 60_000 };

describe("sign-in throttle", () => {
  it("allows five attempts, then locks for a delay that doubles with each further failure", () => {
    let t = 0;
    const th = createThrottle(rule, () => t);
    for (let i = 0; i < 4; i++) expect(th.attempt("a")).toEqual({ allowed: true, locks: false });
    expect(th.attempt("a")).toEqual({ allowed: true, locks: true });
    expect(th.attempt("a")).toEqual({ allowed: false, retryAfterMs: 1_000 });
    t += 1_000;
    expect(th.attempt("a")).toEqual({ allowed: true, locks: true }); // sixth failure
    expect(th.attempt("a")).toEqual({ allowed: false, retryAfterMs: 2_000 });
    t += 2_000;
    th.attempt("a");
    expect(th.attempt("a")).toEqual({ allowed: false, retryAfterMs: 4_000 });
  });

  it("caps the lockout at the maximum delay", () => {
    let t = 0;
    const th = createThrottle(rule, () => t);
    for (let i = 0; i < 40; i++) {
      th.attempt("a");
      t += 60_000;
    }
    th.attempt("a");
    expect(th.attempt("a")).toEqual({ allowed: false, retryAfterMs: 60_000 });
  });

  it("forgets the count after a success and keeps keys apart", () => {
    const th = createThrottle(rule, () => 0);
    for (let i = 0; i < 4; i++) th.attempt("a");
    th.succeeded("a");
    expect(th.failures("a")).toBe(0);
    for (let i = 0; i < 5; i++) th.attempt("a");
    expect(th.attempt("a").allowed).toBe(false);
    expect(th.attempt("b").allowed).toBe(true);
  });

  it("keeps at most maxEntries keys", () => {
    const th = createThrottle(rule, () => 0, 100);
    for (let i = 0; i < 1_000; i++) th.attempt(`k${i}`);
    expect(th.size).toBeLessThanOrEqual(101);
  });
});
