import pino from "pino";
import { describe, expect, it } from "vitest";
import type { CronStore } from "./binding";
import { createFakeClock } from "./fake-clock";
import { CronConfigError } from "./expression";
import { createCronScheduler } from "./scheduler";
import { binding, createHarness } from "./test-harness";

describe("failing admissions", () => {
  it("logs, reports error health and retries with backoff until the run is admitted", async () => {
    const h = createHarness("2025-05-01T08:59:00Z");
    await h.scheduler.bind(binding());
    h.failures.remaining = 2;
    await h.clock.advanceTo("2025-05-01T09:00:00Z");
    expect(h.fired).toHaveLength(0);
    expect(h.health.at(-1)).toEqual({ flowId: "flow-1", status: "error", lastError: "queue unavailable" });
    await h.clock.advance(1000); // second attempt fails too
    expect(h.fired).toHaveLength(0);
    await h.clock.advance(1999);
    expect(h.fired).toHaveLength(0);
    await h.clock.advance(1); // third attempt, 2 s after the second
    expect(h.fired.map((f) => [f.at, f.payload.scheduledAt])).toEqual([
      ["2025-05-01T09:00:03.000Z", "2025-05-01T09:00:00.000Z"],
    ]);
    expect(h.health.at(-1)).toMatchObject({ status: "listening", lastEventAt: "2025-05-01T09:00:03.000Z" });
    expect(h.logs.filter((l) => l.msg.includes("retrying"))).toHaveLength(2);
  });

  it("gives the slot up after six attempts and keeps the schedule alive", async () => {
    const h = createHarness("2025-05-01T08:59:00Z");
    await h.scheduler.bind(binding());
    h.failures.remaining = 6;
    await h.clock.advanceTo("2025-05-01T12:00:00Z");
    expect(h.fired).toHaveLength(0);
    expect(h.logs.filter((l) => l.msg.includes("slot given up"))).toHaveLength(1);
    await h.clock.advanceTo("2025-05-02T09:00:00Z");
    expect(h.fired.map((f) => f.payload.scheduledAt)).toEqual(["2025-05-02T09:00:00.000Z"]);
  });

  it("does not admit a run whose last-fire write failed, and admits it once the store recovers", async () => {
    const h = createHarness("2025-05-01T08:59:00Z");
    await h.scheduler.bind(binding());
    h.store.failWrites = true;
    await h.clock.advanceTo("2025-05-01T09:00:00Z");
    expect(h.fired).toHaveLength(0);
    expect(h.health.at(-1)).toMatchObject({ status: "error", lastError: "disk full" });
    h.store.failWrites = false;
    await h.clock.advance(1000);
    expect(h.fired.map((f) => f.storedAtFire)).toEqual(["2025-05-01T09:00:00.000Z"]);
  });
});

describe("binding lifecycle", () => {
  it("re-binding the same trigger replaces its schedule at once", async () => {
    const h = createHarness("2025-05-01T08:00:00Z");
    await h.scheduler.bind(binding({ expression: "0 9 * * *" }));
    await h.scheduler.bind(binding({ expression: "0 10 * * *", flowVersion: 2 }));
    await h.clock.advanceTo("2025-05-01T11:00:00Z");
    expect(h.fired.map((f) => [f.at, f.binding.flowVersion])).toEqual([["2025-05-01T10:00:00.000Z", 2]]);
  });

  it("binding a new flow version stops triggers the new version no longer has", async () => {
    const h = createHarness("2025-05-01T08:00:00Z");
    await h.scheduler.bind(binding({ nodeId: "old", expression: "0 9 * * *" }));
    await h.scheduler.bind(binding({ nodeId: "new", expression: "0 10 * * *", flowVersion: 2 }));
    await h.clock.advanceTo("2025-05-01T11:00:00Z");
    expect(h.fired.map((f) => f.binding.nodeId)).toEqual(["new"]);
  });

  it("keeps several triggers of one version side by side", async () => {
    const h = createHarness("2025-05-01T08:00:00Z");
    await h.scheduler.bind(binding({ nodeId: "a", expression: "0 9 * * *" }));
    await h.scheduler.bind(binding({ nodeId: "b", expression: "0 10 * * *" }));
    await h.clock.advanceTo("2025-05-01T11:00:00Z");
    expect(h.fired.map((f) => f.binding.nodeId)).toEqual(["a", "b"]);
  });

  it("an invalid re-bind is rejected and leaves the running schedule untouched", async () => {
    const h = createHarness("2025-05-01T08:00:00Z");
    await h.scheduler.bind(binding());
    await expect(h.scheduler.bind(binding({ expression: "0 9 * *", flowVersion: 2 }))).rejects.toBeInstanceOf(
      CronConfigError,
    );
    await expect(h.scheduler.bind(binding({ timezone: "Mars/Olympus" }))).rejects.toThrow(
      'Unknown time zone "Mars/Olympus"; use an IANA name such as "Europe/Berlin" or "UTC"',
    );
    await h.clock.advanceTo("2025-05-01T10:00:00Z");
    expect(h.fired.map((f) => f.at)).toEqual(["2025-05-01T09:00:00.000Z"]);
  });

  it("unbind stops the flow's schedules, queued tick and timers", async () => {
    const h = createHarness("2025-05-01T08:00:00Z");
    await h.scheduler.bind(binding({ expression: "* * * * *", overlap: "queue" }));
    await h.scheduler.bind(binding({ flowId: "flow-2", expression: "0 9 * * *" }));
    h.running.add("flow-1");
    await h.clock.advance(60_000);
    h.scheduler.unbind("flow-1");
    h.scheduler.runFinished("flow-1");
    await h.clock.advanceTo("2025-05-01T10:00:00Z");
    expect(h.fired.map((f) => f.binding.flowId)).toEqual(["flow-2"]);
    h.scheduler.unbind("flow-2");
    expect(h.clock.pending()).toBe(0);
  });

  it("stop clears every timer and refuses new bindings", async () => {
    const h = createHarness("2025-05-01T08:00:00Z");
    await h.scheduler.bind(binding());
    await h.scheduler.bind(binding({ flowId: "flow-2" }));
    h.scheduler.stop();
    expect(h.clock.pending()).toBe(0);
    await expect(h.scheduler.bind(binding())).rejects.toThrow("The cron scheduler is stopped");
    await h.clock.advanceTo("2025-05-02T10:00:00Z");
    expect(h.fired).toHaveLength(0);
  });

  it("an unbind while bind is still reading the store wins", async () => {
    const clock = createFakeClock("2025-05-01T08:00:00Z");
    let release: (d: Date | undefined) => void = () => {};
    const store: CronStore = {
      getLastFire: () => new Promise((resolve) => (release = resolve)),
      setLastFire: async () => {},
    };
    const fired: string[] = [];
    const scheduler = createCronScheduler({
      clock,
      store,
      log: pino({ level: "silent" }),
      fire: async (b) => {
        fired.push(b.nodeId);
        return "run";
      },
      isRunning: () => false,
    });
    const pending = scheduler.bind(binding());
    scheduler.unbind("flow-1");
    release(undefined);
    await pending;
    await clock.advanceTo("2025-05-02T10:00:00Z");
    expect(fired).toEqual([]);
    expect(clock.pending()).toBe(0);
  });
});
