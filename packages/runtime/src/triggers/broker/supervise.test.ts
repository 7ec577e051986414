import { describe, expect, it } from "vitest";
import type { TriggerHealthUpdate } from "../listener";
import { superviseConnection } from "./supervise";

const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
};

/** A fake broker connection: each attempt follows the next script entry. */
function harness(script: ("ok" | "fail" | "hang")[]) {
  const health: TriggerHealthUpdate[] = [];
  const closed: number[] = [];
  let attempt = 0;
  let lose: ((why: string) => void) | undefined;
  const supervisor = superviseConnection({
    what: "trigger.test",
    report: (u) => health.push(u),
    minDelayMs: 1,
    maxDelayMs: 4,
    attemptTimeoutMs: 30,
    async connect(lost) {
      const n = ++attempt;
      const step = script[n - 1] ?? "ok";
      if (step === "fail") throw new Error(`refused (attempt ${n})`);
      if (step === "hang") await new Promise((r) => setTimeout(r, 200));
      lose = lost;
      return { close: async () => void closed.push(n) };
    },
  });
  return { supervisor, health, closed, attempts: () => attempt, lose: (why: string) => lose?.(why) };
}

describe("a supervised broker connection", () => {
  it("reports each failure with its reason, retries, and reports listening once connected", async () => {
    const h = harness(["fail", "fail", "ok"]);
    await until(() => h.supervisor.connected());
    expect(h.health).toEqual([
      { status: "error", lastError: "trigger.test: refused (attempt 1)" },
      { status: "error", lastError: "trigger.test: refused (attempt 2)" },
      { status: "listening", lastError: undefined },
    ]);
    await h.supervisor.stop();
    expect(h.closed).toEqual([3]);
  });

  it("reconnects after the connection is lost, closing the lost one", async () => {
    const h = harness(["ok", "ok"]);
    await until(() => h.supervisor.connected());
    h.lose("connection to broker lost: ECONNRESET");
    await until(() => h.attempts() === 2 && h.supervisor.connected());
    expect(h.health.map((u) => u.status)).toEqual(["listening", "error", "listening"]);
    expect(h.health[1]).toEqual({
      status: "error",
      lastError: "trigger.test: connection to broker lost: ECONNRESET",
    });
    expect(h.closed).toEqual([1]);
    await h.supervisor.stop();
  });

  it("gives up on an attempt that never settles, tries again, and closes the late connection unused", async () => {
    const h = harness(["hang", "ok"]);
    await until(() => h.supervisor.connected());
    expect(h.health[0]).toEqual({
      status: "error",
      lastError: "trigger.test: no connection after 30 ms; trying again",
    });
    await until(() => h.closed.includes(1));
    expect(h.attempts()).toBe(2);
    await h.supervisor.stop();
    expect(h.closed.sort()).toEqual([1, 2]);
  });

  it("stops retrying once stopped", async () => {
    const h = harness(["fail", "fail", "fail", "fail", "fail", "fail"]);
    await until(() => h.attempts() >= 2);
    await h.supervisor.stop();
    const after = h.attempts();
    await new Promise((r) => setTimeout(r, 30));
    expect(h.attempts()).toBe(after);
    expect(h.supervisor.connected()).toBe(false);
  });
});
