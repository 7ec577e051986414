import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore";

describe("Semaphore", () => {
  it("queues past the limit and hands the slot to the next waiter on release", async () => {
    const s = new Semaphore(1);
    const r1 = await s.acquire();
    let second = false;
    const p2 = s.acquire().then((r) => {
      second = true;
      return r;
    });
    await Promise.resolve();
    expect([s.active, s.queued, second]).toEqual([1, 1, false]);
    r1();
    r1(); // a double release is ignored
    const r2 = await p2;
    expect([s.active, s.queued, second]).toEqual([1, 0, true]);
    r2();
    expect(s.active).toBe(0);
  });

  it("drops a queued waiter whose signal aborts", async () => {
    const s = new Semaphore(1);
    const r1 = await s.acquire();
    const ac = new AbortController();
    const waiting = s.acquire(ac.signal);
    ac.abort(new Error("step cancelled"));
    await expect(waiting).rejects.toThrow("step cancelled");
    expect(s.queued).toBe(0);
    r1();
    expect(s.active).toBe(0);
  });

  it("rejects a non-positive limit", () => {
    expect(() => new Semaphore(0)).toThrow("concurrency must be a positive integer, got 0");
  });
});
