import { describe, expect, it } from "vitest";
import { describeSchedule } from "./describe";
import { CronConfigError, compileSchedule } from "./expression";

const FIELDS =
  "expected 5 (minute hour day-of-month month day-of-week) or 6 (second minute hour day-of-month month day-of-week)";

/** The message compileSchedule throws, or "ok". */
const problem = (expression: string, timezone = "UTC") => {
  try {
    compileSchedule(expression, timezone);
    return "ok";
  } catch (err) {
    expect(err).toBeInstanceOf(CronConfigError);
    return (err as Error).message;
  }
};

describe("compileSchedule", () => {
  it("accepts what node-cron accepts: 5 and 6 fields, names, L, W, #, nicknames", () => {
    for (const e of [
      "0 9 * * *",
      "*/10 * * * * *",
      "0 9 * * THU",
      "0 0 L * *",
      "0 9 15W * *",
      "0 0 * * 5#2",
      " 0 9 * JAN-MAR MON-FRI ",
      "@daily",
    ]) {
      expect(problem(e)).toBe("ok");
    }
  });

  it("names the problem and the field in the message", () => {
    expect(problem("")).toBe("Cron expression is empty");
    expect(problem("0 9 * *")).toBe(`Cron expression "0 9 * *" has 4 fields; ${FIELDS}`);
    expect(problem("0 0 9 * * * 2025")).toBe(`Cron expression "0 0 9 * * * 2025" has 7 fields; ${FIELDS}`);
    expect(problem("61 * * * *")).toBe(
      'Cron expression "61 * * * *" has an invalid minute "61" (expected 0-59)',
    );
    expect(problem("0 25 * * *")).toBe(
      'Cron expression "0 25 * * *" has an invalid hour "25" (expected 0-23)',
    );
    expect(problem("0 0 30 2 *")).toBe(
      'Cron expression "0 0 30 2 *" never fires: day of month "30" is not in any of its months',
    );
    expect(problem("H * * * *")).toBe(
      'Cron expression "H * * * *" has an invalid minute "H" (expected 0-59)',
    );
    expect(problem("0 9 * 13 8")).toBe(
      'Cron expression "0 9 * 13 8" has an invalid month "13" (expected 1-12 or JAN-DEC); has an invalid day of week "8" (expected 0-7 or SUN-SAT, n#k or nL)',
    );
    expect(problem("0 9 * * ;")).toBe(
      'Cron expression "0 9 * * ;" contains characters a cron expression cannot have',
    );
  });

  it("refuses an unknown time zone with a message naming it", () => {
    expect(problem("0 9 * * *", "Mars/Olympus")).toBe(
      'Unknown time zone "Mars/Olympus"; use an IANA name such as "Europe/Berlin" or "UTC"',
    );
    expect(problem("0 9 * * *", "")).toBe(
      'Unknown time zone ""; use an IANA name such as "Europe/Berlin" or "UTC"',
    );
  });

  it("matches days the way node-cron does (last day, nearest weekday, nth weekday)", () => {
    const wall = (e: string, from: string) =>
      new Date(compileSchedule(e, "UTC").wallAtOrAfter(Date.parse(from)) ?? 0).toISOString();
    expect(wall("0 0 L * *", "2024-02-10T00:00:00Z")).toBe("2024-02-29T00:00:00.000Z");
    expect(wall("0 9 15W * *", "2025-06-01T00:00:00Z")).toBe("2025-06-16T09:00:00.000Z");
    expect(wall("0 9 * * 1#2", "2025-06-01T00:00:00Z")).toBe("2025-06-09T09:00:00.000Z");
    expect(wall("30 8 * * *", "2025-06-01T08:30:00Z")).toBe("2025-06-01T08:30:00.000Z");
  });

  it("fires on either day when both day of month and day of week are set, as classic cron does", () => {
    const wall = (e: string, from: string) =>
      new Date(compileSchedule(e, "UTC").wallAtOrAfter(Date.parse(from)) ?? 0).toISOString();
    // 2025-01-01 is a Wednesday: the Friday comes first, then Monday the 13th.
    expect(wall("0 9 13 * 5", "2025-01-01T00:00:00Z")).toBe("2025-01-03T09:00:00.000Z");
    expect(wall("0 9 13 * 5", "2025-01-11T00:00:00Z")).toBe("2025-01-13T09:00:00.000Z");
    expect(wall("0 9 L * 1#2", "2025-06-10T00:00:00Z")).toBe("2025-06-30T09:00:00.000Z");
    // One restricted day field is not a choice: only Fridays, only the 13th.
    expect(wall("0 9 * * 5", "2025-01-04T00:00:00Z")).toBe("2025-01-10T09:00:00.000Z");
    expect(wall("0 9 13 * *", "2025-01-14T00:00:00Z")).toBe("2025-02-13T09:00:00.000Z");
  });
});

describe("describeSchedule", () => {
  it("gives a readable description and the next five fires, across a DST change", () => {
    expect(describeSchedule("0 9 * * *", "America/New_York", 5, new Date("2025-03-07T00:00:00Z"))).toEqual({
      description: "At 09:00 (America/New_York)",
      next: [
        "2025-03-07T14:00:00.000Z",
        "2025-03-08T14:00:00.000Z",
        "2025-03-09T13:00:00.000Z",
        "2025-03-10T13:00:00.000Z",
        "2025-03-11T13:00:00.000Z",
      ],
    });
  });

  it("describes seconds and weekday schedules", () => {
    const from = new Date("2025-05-01T12:00:00Z");
    expect(describeSchedule("*/10 * * * * *", "UTC", 2, from)).toEqual({
      description: "Every 10 seconds (UTC)",
      next: ["2025-05-01T12:00:10.000Z", "2025-05-01T12:00:20.000Z"],
    });
    expect(describeSchedule("30 8 * * 1-5", "Europe/Berlin", 1, from).description).toBe(
      "At 08:30, Monday through Friday (Europe/Berlin)",
    );
  });

  it("lists the same fire times the scheduler uses, DST gap included", () => {
    expect(describeSchedule("30 2 * * *", "Europe/Berlin", 2, new Date("2025-03-29T12:00:00Z")).next).toEqual(
      ["2025-03-30T01:00:00.000Z", "2025-03-31T00:30:00.000Z"],
    );
  });

  it("throws a CronConfigError naming the bad field", () => {
    expect(() => describeSchedule("0 9 * *", "UTC")).toThrow(
      new CronConfigError(`Cron expression "0 9 * *" has 4 fields; ${FIELDS}`, "expression"),
    );
    let caught: unknown;
    try {
      describeSchedule("0 9 * * *", "Mars/Olympus");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CronConfigError);
    expect(caught).toMatchObject({
      field: "timezone",
      message: 'Unknown time zone "Mars/Olympus"; use an IANA name such as "Europe/Berlin" or "UTC"',
    });
  });
});
