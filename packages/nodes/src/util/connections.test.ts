import { describe, expect, it } from "vitest";
import { createSharedConnections } from "./connections";

/** An opener that counts opens and closes; `lost` lets a test say the connection died by itself. */
function opener(fail = false) {
  const log: string[] = [];
  let n = 0;
  let lost: (() => void) | undefined;
  return {
    log,
    lose: () => lost?.(),
    spec: {
      open: async (l: () => void) => {
        n += 1;
        lost = l;
        if (fail) throw new Error(`open ${n} failed`);
        log.push(`open ${n}`);
        return `conn ${n}`;
      },
      close: (c: string) => {
        log.push(`close ${c}`);
      },
    },
  };
}
const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
};

describe("shared connections", () => {
  it("opens one connection per key however many leases use it, and closes it once idle", async () => {
    const shared = createSharedConnections({ idleMs: 10 });
    const o = opener();
    const [a, b] = await Promise.all([shared.acquire("k", o.spec), shared.acquire("k", o.spec)]);
    expect([a.connection, b.connection]).toEqual(["conn 1", "conn 1"]);
    a.release();
    b.release();
    b.release(); // a second release of one lease counts once
    await until(() => o.log.length === 2);
    expect(o.log).toEqual(["open 1", "close conn 1"]);
    expect(shared.keys()).toEqual([]);
    expect((await shared.acquire("k", o.spec)).connection).toBe("conn 2");
  });

  it("keeps a connection in use open past the idle time, and a new lease cancels the idle close", async () => {
    const shared = createSharedConnections({ idleMs: 10 });
    const o = opener();
    const a = await shared.acquire("k", o.spec);
    a.release();
    const b = await shared.acquire("k", o.spec);
    await new Promise((r) => setTimeout(r, 30));
    expect(o.log).toEqual(["open 1"]);
    b.release();
    await until(() => o.log.length === 2);
  });

  it("does not keep a connection that failed to open: the next acquire tries again", async () => {
    const shared = createSharedConnections();
    const o = opener(true);
    await expect(shared.acquire("k", o.spec)).rejects.toThrow("open 1 failed");
    expect(shared.keys()).toEqual([]);
    await expect(shared.acquire("k", o.spec)).rejects.toThrow("open 2 failed");
  });

  it("drops a connection that died by itself or was discarded, so no run gets it again", async () => {
    const shared = createSharedConnections();
    const o = opener();
    const a = await shared.acquire("k", o.spec);
    o.lose();
    expect(shared.keys()).toEqual([]);
    a.release();
    const b = await shared.acquire("k", o.spec);
    expect(b.connection).toBe("conn 2");
    b.discard();
    expect(shared.keys()).toEqual([]);
    await until(() => o.log.includes("close conn 2"));
  });

  it("closes every connection on closeAll and opens none after it", async () => {
    const shared = createSharedConnections();
    const o = opener();
    await shared.acquire("a", o.spec);
    await shared.acquire("b", o.spec);
    await shared.closeAll();
    expect(o.log.sort()).toEqual(["close conn 1", "close conn 2", "open 1", "open 2"]);
    await expect(shared.acquire("c", o.spec)).rejects.toThrow(
      "the host is shutting down: no new connections",
    );
  });
});
