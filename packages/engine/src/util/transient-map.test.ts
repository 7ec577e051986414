import { describe, expect, it } from "vitest";
import { InFlight, TransientMap } from "./transient-map";

describe("TransientMap", () => {
  it("gets, sets, deletes and counts like a Map", () => {
    const m = new TransientMap<number>();
    m.set("a", 1).set("b", 2).set("a", 3);
    expect(m.size).toBe(2);
    expect(m.get("a")).toBe(3);
    expect(m.has("b")).toBe(true);
    expect(m.delete("b")).toBe(true);
    expect(m.delete("b")).toBe(false);
    expect(m.has("b")).toBe(false);
    expect(m.get("b")).toBeUndefined();
    expect(m.entries()).toEqual([["a", 3]]);
    expect(m.size).toBe(1);
  });

  it("treats keys named after Object.prototype members as plain keys", () => {
    const m = new TransientMap<string>();
    expect(m.has("toString")).toBe(false);
    expect(m.get("constructor")).toBeUndefined();
    m.set("__proto__", "x");
    expect(m.get("__proto__")).toBe("x");
    expect(m.keys()).toEqual(["__proto__"]);
    expect(m.size).toBe(1);
  });

  it("keeps a value of undefined as an entry", () => {
    const m = new TransientMap<undefined>();
    m.set("k", undefined);
    expect(m.has("k")).toBe(true);
    expect(m.size).toBe(1);
  });

  it("lets entries be deleted while walking a snapshot", () => {
    const m = new TransientMap<number>();
    for (let i = 0; i < 5; i++) m.set(`k${i}`, i);
    for (const [k, v] of m.entries()) if (v % 2 === 0) m.delete(k);
    expect(m.values()).toEqual([1, 3]);
  });
});

describe("InFlight", () => {
  it("settles after everything tracked, including work started while waiting, and forgets settled work", async () => {
    const f = new InFlight();
    const done: string[] = [];
    const later = (ms: number, what: string) =>
      new Promise<void>((r) => setTimeout(() => (done.push(what), r()), ms));
    void f.track(later(20, "a"));
    void f
      .track(
        Promise.reject(new Error("failed work is settled work")).catch(() => {
          f.track(later(10, "started meanwhile"));
          throw new Error("still rejected");
        }),
      )
      .catch(() => {});
    await f.settled();
    expect(done.sort()).toEqual(["a", "started meanwhile"]);
    expect(f.size).toBe(0);
  });
});
