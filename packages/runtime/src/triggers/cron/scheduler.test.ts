import { cronPayload } from "@switchyard/contracts/triggers";
import cron from "node-cron";
import { describe, expect, it } from "vitest";
import { MAX_TIMEOUT_MS } from "./clock";
import { WARN, binding, createHarness } from "./test-harness";

const slots = (h: ReturnType<typeof createHarness>) => h.fired.map((f) => f.payload.scheduledAt);

describe("firing", () => {
  it("fires in the binding's time zone with the documented payload", async () => {
    const h = createHarness("2025-01-14T00:00:00Z");
    await h.scheduler.bind(binding({ timezone: "America/New_York" }));
    await h.clock.advanceTo("2025-01-14T13:59:59Z");
    expect(h.fired).toHaveLength(0);
    await h.clock.advanceTo("2025-01-15T00:00:00Z");
    expect(h.fired.map((f) => f.payload)).toEqual([
      {
        scheduledAt: "2025-01-14T14:00:00.000Z",
        firedAt: "2025-01-14T14:00:00.000Z",
        expression: "0 9 * * *",
        timezone: "America/New_York",
        missed: false,
      },
    ]);
    expect(h.health.at(-1)).toEqual({
      flowId: "flow-1",
      status: "listening",
      lastEventAt: "2025-01-14T14:00:00.000Z",
    });
  });

  it("emits exactly the payload the cron trigger declares: no extra keys, none missing", async () => {
    const h = createHarness("2025-06-10T10:00:00Z", { initial: { "flow-1/cron": "2025-06-09T09:00:00Z" } });
    await h.scheduler.bind(binding({ expression: " 0 9 * * * ", missed: "run_once" }));
    await h.clock.advanceTo("2025-06-11T09:00:00Z");
    expect(h.fired.map((f) => [f.payload.missed, f.payload.expression])).toEqual([
      [true, "0 9 * * *"],
      [false, "0 9 * * *"],
    ]);
    for (const f of h.fired) expect(cronPayload.strict().parse(f.payload)).toEqual(f.payload);
    expect(Object.keys(h.fired[0]?.payload ?? {}).sort()).toEqual(Object.keys(cronPayload.shape).sort());
  });

  it("fires 09:00 New York at 13:00Z in summer", async () => {
    const h = createHarness("2025-07-14T00:00:00Z");
    await h.scheduler.bind(binding({ timezone: "America/New_York" }));
    await h.clock.advanceTo("2025-07-16T00:00:00Z");
    expect(slots(h)).toEqual(["2025-07-14T13:00:00.000Z", "2025-07-15T13:00:00.000Z"]);
  });

  it("fires a 6-field expression every 10 seconds", async () => {
    const h = createHarness("2025-05-01T12:00:00Z");
    await h.scheduler.bind(binding({ expression: "*/10 * * * * *" }));
    await h.clock.advance(60_000);
    expect(h.fired.map((f) => f.at)).toEqual(
      [10, 20, 30, 40, 50].map((s) => `2025-05-01T12:00:${s}.000Z`).concat("2025-05-01T12:01:00.000Z"),
    );
  });

  it("persists the slot before it admits the run", async () => {
    const h = createHarness("2025-05-01T12:00:00Z");
    await h.scheduler.bind(binding({ expression: "* * * * *" }));
    await h.clock.advance(3 * 60_000);
    expect(h.fired).toHaveLength(3);
    for (const f of h.fired) expect(f.storedAtFire).toBe(f.payload.scheduledAt);
  });

  it("waits longer than setTimeout's limit in capped steps and fires exactly on time", async () => {
    const h = createHarness("2025-02-01T00:00:00Z");
    await h.scheduler.bind(binding({ expression: "0 0 1 1 *", timezone: "UTC" }));
    await h.clock.advanceTo("2025-12-31T23:59:59Z");
    expect(h.fired).toHaveLength(0);
    await h.clock.advanceTo("2026-01-01T00:00:01Z");
    expect(h.fired.map((f) => f.at)).toEqual(["2026-01-01T00:00:00.000Z"]);
    expect(h.clock.longestDelay()).toBeLessThanOrEqual(MAX_TIMEOUT_MS);
  });
});

describe("overlap policy", () => {
  it("skip: drops ticks while the flow runs, logs why at debug, never warns", async () => {
    const h = createHarness("2025-05-01T12:00:00Z");
    await h.scheduler.bind(binding({ expression: "* * * * *" }));
    h.running.add("flow-1");
    await h.clock.advance(3 * 60_000);
    expect(h.fired).toHaveLength(0);
    const skips = h.logs.filter((l) => l.msg === "cron tick skipped");
    expect(skips.map((l) => [l.level, l.reason])).toEqual(Array(3).fill([20, "previous run still running"]));
    expect(h.logs.filter((l) => l.level >= WARN)).toEqual([]);
    // Skipped slots are recorded, so a restart does not mistake them for downtime.
    expect(h.store.writes.at(-1)).toBe("2025-05-01T12:03:00.000Z");
    h.running.delete("flow-1");
    await h.clock.advance(60_000);
    expect(slots(h)).toEqual(["2025-05-01T12:04:00.000Z"]);
  });

  it("queue: holds one tick, coalesces the rest and fires it when the run finishes", async () => {
    const h = createHarness("2025-05-01T12:00:00Z");
    await h.scheduler.bind(binding({ expression: "* * * * *", overlap: "queue" }));
    h.running.add("flow-1");
    await h.clock.advance(3 * 60_000);
    expect(h.fired).toHaveLength(0);
    expect(h.logs.filter((l) => l.msg === "cron tick coalesced")).toHaveLength(2);
    h.running.delete("flow-1");
    h.scheduler.runFinished("flow-1");
    await h.clock.settle();
    expect(h.fired.map((f) => [f.at, f.payload.scheduledAt])).toEqual([
      ["2025-05-01T12:03:00.000Z", "2025-05-01T12:01:00.000Z"],
    ]);
    h.scheduler.runFinished("flow-1");
    await h.clock.settle();
    expect(h.fired).toHaveLength(1);
    await h.clock.advance(60_000);
    expect(slots(h)).toEqual(["2025-05-01T12:01:00.000Z", "2025-05-01T12:04:00.000Z"]);
  });

  it("queue: admits at once when nothing is running", async () => {
    const h = createHarness("2025-05-01T12:00:00Z");
    await h.scheduler.bind(binding({ expression: "* * * * *", overlap: "queue" }));
    await h.clock.advance(2 * 60_000);
    expect(slots(h)).toEqual(["2025-05-01T12:01:00.000Z", "2025-05-01T12:02:00.000Z"]);
  });

  it("allow: admits every tick even while the flow runs", async () => {
    const h = createHarness("2025-05-01T12:00:00Z");
    await h.scheduler.bind(binding({ expression: "* * * * *", overlap: "allow" }));
    h.running.add("flow-1");
    await h.clock.advance(3 * 60_000);
    expect(h.fired).toHaveLength(3);
  });
});

describe("missed-run policy after a 3-day downtime", () => {
  const initial = { "flow-1/cron": "2025-06-10T09:00:00Z" };

  it("skip: runs nothing at start and resumes with the next slot", async () => {
    const h = createHarness("2025-06-13T12:00:00Z", { initial });
    await h.scheduler.bind(binding());
    await h.clock.settle();
    expect(h.fired).toHaveLength(0);
    expect(h.logs.find((l) => l.msg.includes("skipped by policy"))).toMatchObject({
      firstMissed: "2025-06-11T09:00:00.000Z",
      latestMissed: "2025-06-13T09:00:00.000Z",
    });
    await h.clock.advanceTo("2025-06-14T12:00:00Z");
    expect(h.fired.map((f) => [f.payload.scheduledAt, f.payload.missed])).toEqual([
      ["2025-06-14T09:00:00.000Z", false],
    ]);
  });

  it("run_once: runs exactly one catch-up for the latest missed slot, then resumes", async () => {
    const h = createHarness("2025-06-13T12:00:00Z", { initial });
    await h.scheduler.bind(binding({ missed: "run_once" }));
    await h.clock.settle();
    expect(h.fired.map((f) => f.payload)).toEqual([
      {
        scheduledAt: "2025-06-13T09:00:00.000Z",
        firedAt: "2025-06-13T12:00:00.000Z",
        expression: "0 9 * * *",
        timezone: "UTC",
        missed: true,
      },
    ]);
    expect(h.store.data.get("flow-1/cron")?.toISOString()).toBe("2025-06-13T09:00:00.000Z");
    await h.clock.advanceTo("2025-06-14T12:00:00Z");
    expect(h.fired.map((f) => [f.payload.scheduledAt, f.payload.missed])).toEqual([
      ["2025-06-13T09:00:00.000Z", true],
      ["2025-06-14T09:00:00.000Z", false],
    ]);
  });

  it("run_once: a restart right after the catch-up does not run it again", async () => {
    const first = createHarness("2025-06-13T12:00:00Z", { initial });
    await first.scheduler.bind(binding({ missed: "run_once" }));
    await first.clock.settle();
    first.scheduler.stop();
    const stored = { "flow-1/cron": first.store.data.get("flow-1/cron")?.toISOString() ?? "" };
    const second = createHarness("2025-06-13T12:05:00Z", { initial: stored });
    await second.scheduler.bind(binding({ missed: "run_once" }));
    await second.clock.settle();
    expect(first.fired).toHaveLength(1);
    expect(second.fired).toHaveLength(0);
  });

  it("run_once: no catch-up when nothing was missed or no fire was ever recorded", async () => {
    const recent = createHarness("2025-06-13T12:00:00Z", {
      initial: { "flow-1/cron": "2025-06-13T09:00:00Z" },
    });
    await recent.scheduler.bind(binding({ missed: "run_once" }));
    const fresh = createHarness("2025-06-13T12:00:00Z");
    await fresh.scheduler.bind(binding({ missed: "run_once" }));
    await recent.clock.settle();
    await fresh.clock.settle();
    expect(recent.fired).toHaveLength(0);
    expect(fresh.fired).toHaveLength(0);
  });

  it("does not fire again when the recorded last fire lies ahead of the clock", async () => {
    const h = createHarness("2025-06-13T08:00:00Z", { initial: { "flow-1/cron": "2025-06-13T09:00:00Z" } });
    await h.scheduler.bind(binding({ missed: "run_once" }));
    await h.clock.advanceTo("2025-06-14T08:00:00Z");
    expect(h.fired).toHaveLength(0);
  });
});

describe("run coordinator (node-cron's hook for several processes)", () => {
  it("asks once per slot and admits only the slots this process is elected for", async () => {
    const asked: Array<[string, number]> = [];
    const completed: string[] = [];
    const h = createHarness("2025-05-01T12:00:00Z", {
      coordinator: {
        shouldRun: async (key, ttlMs) => {
          asked.push([key, ttlMs]);
          return asked.length !== 2;
        },
        onComplete: (key) => void completed.push(key),
      },
    });
    await h.scheduler.bind(binding({ expression: "* * * * *" }));
    await h.clock.advance(3 * 60_000);
    expect(asked).toEqual([
      ["flow-1:cron:2025-05-01T12:01:00.000Z", 30_000],
      ["flow-1:cron:2025-05-01T12:02:00.000Z", 30_000],
      ["flow-1:cron:2025-05-01T12:03:00.000Z", 30_000],
    ]);
    expect(slots(h)).toEqual(["2025-05-01T12:01:00.000Z", "2025-05-01T12:03:00.000Z"]);
    expect(completed).toEqual([
      "flow-1:cron:2025-05-01T12:01:00.000Z",
      "flow-1:cron:2025-05-01T12:03:00.000Z",
    ]);
    // The slot another process ran is recorded too, so a restart does not mistake it for downtime.
    expect(h.store.writes).toEqual([
      "2025-05-01T12:01:00.000Z",
      "2025-05-01T12:02:00.000Z",
      "2025-05-01T12:03:00.000Z",
    ]);
  });

  it("runs nothing when the coordinator cannot answer, and says so in health", async () => {
    const h = createHarness("2025-05-01T12:00:00Z", {
      coordinator: {
        shouldRun: async () => {
          throw new Error("redis down");
        },
      },
    });
    await h.scheduler.bind(binding({ expression: "* * * * *" }));
    await h.clock.advance(60_000);
    expect(h.fired).toEqual([]);
    expect(h.health.at(-1)).toEqual({
      flowId: "flow-1",
      status: "error",
      lastError: "Run coordinator failed: redis down",
    });
    expect(h.logs.find((l) => l.msg === "cron run coordinator failed; slot skipped")).toBeDefined();
  });
});

describe("node-cron's own log lines", () => {
  it("go to the scheduler's logger, not the console", async () => {
    const h = createHarness("2025-05-01T12:00:00Z");
    const task = cron.createTask("* * * * *", () => {
      throw new Error("boom");
    });
    await expect(task.execute()).rejects.toThrow("boom");
    await task.destroy();
    expect(h.logs.filter((l) => (l as { source?: string }).source === "node-cron")).toEqual([
      expect.objectContaining({ level: 50, msg: "boom" }),
    ]);
  });
});
