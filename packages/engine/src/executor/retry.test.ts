import { describe, expect, it } from "vitest";
import { retryDelay } from "./retry";

describe("retryDelay", () => {
  it("keeps a fixed delay for every attempt", () => {
    const p = { maxAttempts: 5, backoff: "fixed" as const, delayMs: 100 };
    expect([1, 2, 3].map((a) => retryDelay(p, a, 0.9))).toEqual([100, 100, 100]);
  });

  it("doubles exponential delays and caps them at maxDelayMs", () => {
    const p = { maxAttempts: 9, backoff: "exponential" as const, delayMs: 100, maxDelayMs: 500 };
    expect([1, 2, 3, 4, 5].map((a) => retryDelay(p, a, 0))).toEqual([100, 200, 400, 500, 500]);
  });

  it("adds up to jitter × delay from the random number (true means half)", () => {
    const p = { maxAttempts: 3, backoff: "fixed" as const, delayMs: 100 };
    expect(retryDelay({ ...p, jitter: 0.2 }, 1, 1)).toBe(120);
    expect(retryDelay({ ...p, jitter: true }, 1, 0.5)).toBe(125);
    expect(retryDelay({ ...p, jitter: true }, 1, 0)).toBe(100);
  });
});
