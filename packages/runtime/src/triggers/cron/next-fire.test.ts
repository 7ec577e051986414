import { describe, expect, it } from "vitest";
import { compileSchedule } from "./expression";
import { latestFireAtOrBefore, nextFires } from "./next-fire";

const fires = (expression: string, timezone: string, from: string, count: number) =>
  nextFires(compileSchedule(expression, timezone), Date.parse(from), count).map((ms) =>
    new Date(ms).toISOString(),
  );

describe("time zones and fields", () => {
  it("fires 09:00 New York at 14:00Z in winter and 13:00Z in summer", () => {
    expect(fires("0 9 * * *", "America/New_York", "2025-01-14T00:00:00Z", 1)).toEqual([
      "2025-01-14T14:00:00.000Z",
    ]);
    expect(fires("0 9 * * *", "America/New_York", "2025-07-14T00:00:00Z", 1)).toEqual([
      "2025-07-14T13:00:00.000Z",
    ]);
  });

  it("treats a 6-field expression as seconds first", () => {
    expect(fires("*/20 * * * * *", "UTC", "2025-05-01T12:00:05Z", 3)).toEqual([
      "2025-05-01T12:00:20.000Z",
      "2025-05-01T12:00:40.000Z",
      "2025-05-01T12:01:00.000Z",
    ]);
    expect(fires("15 30 9 * * *", "Europe/Berlin", "2025-05-01T00:00:00Z", 1)).toEqual([
      "2025-05-01T07:30:15.000Z",
    ]);
  });

  it("fires strictly after the given instant", () => {
    expect(fires("0 9 * * *", "UTC", "2025-05-01T09:00:00Z", 1)).toEqual(["2025-05-02T09:00:00.000Z"]);
    expect(fires("0 9 * * *", "UTC", "2025-05-01T08:59:59.999Z", 1)).toEqual(["2025-05-01T09:00:00.000Z"]);
  });

  it("finds a leap day years ahead", () => {
    expect(fires("0 0 29 2 *", "Europe/Berlin", "2025-01-10T00:00:00Z", 1)).toEqual([
      "2028-02-28T23:00:00.000Z",
    ]);
  });
});

// Europe/Berlin 2025: 30 March 02:00 CET -> 03:00 CEST (01:00Z); 26 October 03:00 CEST -> 02:00 CET (01:00Z).
describe("Europe/Berlin spring forward (02:00-02:59 does not exist on 30 March 2025)", () => {
  it("fires a daily 02:30 once at 03:00 local, the first valid instant after the gap", () => {
    expect(fires("30 2 * * *", "Europe/Berlin", "2025-03-29T00:00:00Z", 3)).toEqual([
      "2025-03-29T01:30:00.000Z", // 02:30 CET
      "2025-03-30T01:00:00.000Z", // 03:00 CEST
      "2025-03-31T00:30:00.000Z", // 02:30 CEST
    ]);
  });

  it("collapses every match inside the gap, and a match at 03:00, into one fire", () => {
    expect(fires("*/15 2 * * *", "Europe/Berlin", "2025-03-29T23:00:00Z", 2)).toEqual([
      "2025-03-30T01:00:00.000Z",
      "2025-03-31T00:00:00.000Z",
    ]);
    expect(fires("0,30 2-3 * * *", "Europe/Berlin", "2025-03-29T23:00:00Z", 3)).toEqual([
      "2025-03-30T01:00:00.000Z", // 02:00, 02:30 and 03:00 local are one fire
      "2025-03-30T01:30:00.000Z", // 03:30 CEST
      "2025-03-31T00:00:00.000Z",
    ]);
  });

  it("keeps hourly schedules one elapsed hour apart", () => {
    expect(fires("0 * * * *", "Europe/Berlin", "2025-03-29T23:30:00Z", 3)).toEqual([
      "2025-03-30T00:00:00.000Z", // 01:00 CET
      "2025-03-30T01:00:00.000Z", // 03:00 CEST
      "2025-03-30T02:00:00.000Z", // 04:00 CEST
    ]);
    expect(fires("30 * * * *", "Europe/Berlin", "2025-03-30T00:00:00Z", 2)).toEqual([
      "2025-03-30T00:30:00.000Z", // 01:30 CET
      "2025-03-30T01:30:00.000Z", // 03:30 CEST
    ]);
  });
});

describe("Europe/Berlin fall back (02:00-02:59 happens twice on 26 October 2025)", () => {
  it("fires a daily 02:30 only at its first occurrence", () => {
    expect(fires("30 2 * * *", "Europe/Berlin", "2025-10-25T00:00:00Z", 3)).toEqual([
      "2025-10-25T00:30:00.000Z",
      "2025-10-26T00:30:00.000Z", // 02:30 CEST; 02:30 CET (01:30Z) does not fire
      "2025-10-27T01:30:00.000Z",
    ]);
  });

  it("does not fire the repeat when asked from inside the second pass", () => {
    expect(fires("30 2 * * *", "Europe/Berlin", "2025-10-26T01:10:00Z", 1)).toEqual([
      "2025-10-27T01:30:00.000Z",
    ]);
  });

  it("fires every minute of the 02 hour once, not twice", () => {
    const day = nextFires(
      compileSchedule("* 2 * * *", "Europe/Berlin"),
      Date.parse("2025-10-25T22:00:00Z"),
      61,
    );
    expect(day.filter((ms) => ms < Date.parse("2025-10-26T23:00:00Z"))).toHaveLength(60);
    expect(new Date(day[59] ?? 0).toISOString()).toBe("2025-10-26T00:59:00.000Z");
  });

  it("keeps hourly and half-hourly schedules firing by elapsed time through both passes", () => {
    expect(fires("0 * * * *", "Europe/Berlin", "2025-10-25T23:30:00Z", 3)).toEqual([
      "2025-10-26T00:00:00.000Z", // 02:00 CEST
      "2025-10-26T01:00:00.000Z", // 02:00 CET
      "2025-10-26T02:00:00.000Z", // 03:00 CET
    ]);
    expect(fires("*/30 * * * *", "Europe/Berlin", "2025-10-26T00:10:00Z", 4)).toEqual([
      "2025-10-26T00:30:00.000Z",
      "2025-10-26T01:00:00.000Z",
      "2025-10-26T01:30:00.000Z",
      "2025-10-26T02:00:00.000Z",
    ]);
  });
});

// America/New_York 2025: 9 March 02:00 EST -> 03:00 EDT (07:00Z); 2 November 02:00 EDT -> 01:00 EST (06:00Z).
describe("America/New_York transitions", () => {
  it("fires a daily 02:30 at 03:00 EDT on the spring-forward day", () => {
    expect(fires("30 2 * * *", "America/New_York", "2025-03-08T00:00:00Z", 3)).toEqual([
      "2025-03-08T07:30:00.000Z",
      "2025-03-09T07:00:00.000Z",
      "2025-03-10T06:30:00.000Z",
    ]);
  });

  it("fires a daily 01:30 once, in daylight time, on the fall-back day", () => {
    expect(fires("30 1 * * *", "America/New_York", "2025-11-01T00:00:00Z", 3)).toEqual([
      "2025-11-01T05:30:00.000Z",
      "2025-11-02T05:30:00.000Z", // 01:30 EDT; 01:30 EST (06:30Z) does not fire
      "2025-11-03T06:30:00.000Z",
    ]);
  });

  it("keeps a half-hourly schedule on elapsed time through the repeated hour", () => {
    expect(fires("*/30 * * * *", "America/New_York", "2025-11-02T04:50:00Z", 5)).toEqual([
      "2025-11-02T05:00:00.000Z",
      "2025-11-02T05:30:00.000Z",
      "2025-11-02T06:00:00.000Z",
      "2025-11-02T06:30:00.000Z",
      "2025-11-02T07:00:00.000Z",
    ]);
  });
});

describe("latestFireAtOrBefore", () => {
  it("finds the most recent slot inside the window and nothing outside it", () => {
    const daily = compileSchedule("0 9 * * *", "UTC");
    const now = Date.parse("2025-06-13T12:00:00Z");
    expect(latestFireAtOrBefore(daily, now, Date.parse("2025-06-10T09:00:00Z"))).toBe(
      Date.parse("2025-06-13T09:00:00Z"),
    );
    expect(latestFireAtOrBefore(daily, now, Date.parse("2025-06-13T09:00:00Z"))).toBeUndefined();
    const secondly = compileSchedule("* * * * * *", "UTC");
    expect(latestFireAtOrBefore(secondly, now + 500, now - 3 * 86_400_000)).toBe(now);
  });
});
