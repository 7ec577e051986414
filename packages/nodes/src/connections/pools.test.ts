import { describe, expect, it, vi } from "vitest";
import { createConnectionPools } from "./pools";

/** A resource that records its opens and closes; `closed` resolves when it is closed. */
function tracked() {
  const log: string[] = [];
  let n = 0;
  let onClose: (() => void) | undefined;
  const closed = new Promise<void>((r) => {
    onClose = r;
  });
  return {
    log,
    closed,
    resource: {
      async open() {
        n++;
        log.push(`open ${n}`);
        return { id: n };
      },
      async close(c: { id: number }) {
        log.push(`close ${c.id}`);
        onClose?.();
      },
    },
  };
}

describe("shared connection pools", () => {
  it("opens one connection per key, however many uses overlap", async () => {
    const pools = createConnectionPools();
    const t = tracked();
    const ids = await Promise.all([1, 2, 3].map(() => pools.use("k", t.resource, async (c) => c.id)));
    expect(ids).toEqual([1, 1, 1]);
    expect(t.log).toEqual(["open 1"]);
    await pools.closeAll();
    expect(t.log).toEqual(["open 1", "close 1"]);
    expect(pools.keys()).toEqual([]);
  });

  it("closes a connection once nothing used it for the idle time, and opens a new one on the next use", async () => {
    const pools = createConnectionPools({ idleMs: 5 });
    const t = tracked();
    await pools.use("k", t.resource, async () => undefined);
    await t.closed;
    expect(pools.keys()).toEqual([]);
    await pools.use("k", t.resource, async () => undefined);
    expect(t.log).toEqual(["open 1", "close 1", "open 2"]);
    await pools.closeAll();
  });

  it("never closes a connection while a use holds it", async () => {
    vi.useFakeTimers();
    try {
      const pools = createConnectionPools({ idleMs: 1000 });
      const t = tracked();
      let release!: () => void;
      const held = pools.use("k", t.resource, () => new Promise<void>((r) => (release = r)));
      // A second, short use ends while the first still holds the connection: no idle timer may start.
      await pools.use("k", t.resource, async () => undefined);
      await vi.advanceTimersByTimeAsync(5000);
      expect(t.log).toEqual(["open 1"]);
      release();
      await held;
      await vi.advanceTimersByTimeAsync(1000);
      await t.closed;
      expect(t.log).toEqual(["open 1", "close 1"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not keep a failed open: the next use tries again", async () => {
    const pools = createConnectionPools();
    let attempts = 0;
    const flaky = {
      async open() {
        attempts++;
        if (attempts === 1) throw new Error("refused");
        return "ok";
      },
      async close() {},
    };
    await expect(pools.use("k", flaky, async (c) => c)).rejects.toThrow("refused");
    await expect(pools.use("k", flaky, async (c) => c)).resolves.toBe("ok");
    await pools.closeAll();
  });
});
