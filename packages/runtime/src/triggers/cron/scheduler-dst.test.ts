import { describe, expect, it } from "vitest";
import { binding, createHarness } from "./test-harness";

/** Runs the scheduler on a virtual clock over [from, to] and returns the instants it fired at. */
async function firesBetween(expression: string, timezone: string, from: string, to: string) {
  const h = createHarness(from);
  await h.scheduler.bind(binding({ expression, timezone }));
  await h.clock.advanceTo(to);
  for (const f of h.fired) expect(f.at).toBe(f.payload.scheduledAt);
  return h.fired.map((f) => f.at);
}

describe("Europe/Berlin, spring forward on 2025-03-30 (02:00 CET -> 03:00 CEST at 01:00Z)", () => {
  it("fires the non-existent 02:30 once, at 03:00 CEST", async () => {
    expect(
      await firesBetween("30 2 * * *", "Europe/Berlin", "2025-03-29T12:00:00Z", "2025-03-31T12:00:00Z"),
    ).toEqual(["2025-03-30T01:00:00.000Z", "2025-03-31T00:30:00.000Z"]);
  });

  it("fires hourly one elapsed hour apart", async () => {
    expect(
      await firesBetween("0 * * * *", "Europe/Berlin", "2025-03-29T23:30:00Z", "2025-03-30T02:30:00Z"),
    ).toEqual(["2025-03-30T00:00:00.000Z", "2025-03-30T01:00:00.000Z", "2025-03-30T02:00:00.000Z"]);
  });
});

describe("Europe/Berlin, fall back on 2025-10-26 (03:00 CEST -> 02:00 CET at 01:00Z)", () => {
  it("fires the repeated 02:30 once, at its first occurrence", async () => {
    expect(
      await firesBetween("30 2 * * *", "Europe/Berlin", "2025-10-25T12:00:00Z", "2025-10-27T12:00:00Z"),
    ).toEqual(["2025-10-26T00:30:00.000Z", "2025-10-27T01:30:00.000Z"]);
  });

  it("fires hourly in both passes of 02:00", async () => {
    expect(
      await firesBetween("0 * * * *", "Europe/Berlin", "2025-10-25T23:30:00Z", "2025-10-26T02:30:00Z"),
    ).toEqual(["2025-10-26T00:00:00.000Z", "2025-10-26T01:00:00.000Z", "2025-10-26T02:00:00.000Z"]);
  });
});

describe("America/New_York, 2025-03-09 (spring) and 2025-11-02 (fall)", () => {
  it("fires 02:30 at 03:00 EDT on the spring-forward day", async () => {
    expect(
      await firesBetween("30 2 * * *", "America/New_York", "2025-03-08T12:00:00Z", "2025-03-10T12:00:00Z"),
    ).toEqual(["2025-03-09T07:00:00.000Z", "2025-03-10T06:30:00.000Z"]);
  });

  it("fires 01:30 once, in EDT, on the fall-back day", async () => {
    expect(
      await firesBetween("30 1 * * *", "America/New_York", "2025-11-01T12:00:00Z", "2025-11-03T12:00:00Z"),
    ).toEqual(["2025-11-02T05:30:00.000Z", "2025-11-03T06:30:00.000Z"]);
  });

  it("fires every 30 minutes by elapsed time through the repeated hour", async () => {
    expect(
      await firesBetween("*/30 * * * *", "America/New_York", "2025-11-02T04:50:00Z", "2025-11-02T07:10:00Z"),
    ).toEqual([
      "2025-11-02T05:00:00.000Z",
      "2025-11-02T05:30:00.000Z",
      "2025-11-02T06:00:00.000Z",
      "2025-11-02T06:30:00.000Z",
      "2025-11-02T07:00:00.000Z",
    ]);
  });
});
