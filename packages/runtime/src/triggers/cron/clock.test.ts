import { describe, expect, it } from "vitest";
import { realClock } from "./clock";
import { createFakeClock } from "./fake-clock";

describe("realClock", () => {
  it("runs callbacks on global timers and cancels them on clearTimeout", async () => {
    const ran: string[] = [];
    const cancelled = realClock.setTimeout(() => ran.push("cancelled"), 0);
    realClock.clearTimeout(cancelled);
    await new Promise<void>((resolve) => realClock.setTimeout(() => resolve(void ran.push("ran")), 0));
    expect(ran).toEqual(["ran"]);
    expect(Math.abs(realClock.now() - Date.now())).toBeLessThan(1000);
  });
});

describe("createFakeClock", () => {
  it("fires due timers in time order, each at its own virtual time, and no later ones", async () => {
    const clock = createFakeClock("2025-01-01T00:00:00Z");
    const seen: Array<[string, number]> = [];
    clock.setTimeout(() => seen.push(["b", clock.now()]), 2000);
    clock.setTimeout(() => {
      seen.push(["a", clock.now()]);
      clock.setTimeout(() => seen.push(["c", clock.now()]), 500);
    }, 1000);
    clock.setTimeout(() => seen.push(["late", clock.now()]), 5000);
    await clock.advance(2000);
    const t0 = Date.parse("2025-01-01T00:00:00Z");
    expect(seen).toEqual([
      ["a", t0 + 1000],
      ["c", t0 + 1500],
      ["b", t0 + 2000],
    ]);
    expect(clock.pending()).toBe(1);
  });
});
