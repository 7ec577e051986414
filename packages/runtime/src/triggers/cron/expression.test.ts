import { describe, expect, it } from "vitest";
import { describeSchedule } from "./describe";
import { CronConfigError, validateCron, validateTimezone } from "./expression";

const FIELDS =
  "expected 5 (minute hour day-of-month month day-of-week) or 6 (second minute hour day-of-month month day-of-week)";

describe("validateCron", () => {
  it("accepts 5- and 6-field expressions, names, L and #", () => {
    for (const e of [
      "0 9 * * *",
      "*/10 * * * * *",
      "0 9 * * THU",
      "0 0 L * *",
      "0 0 * * 5#2",
      " 0 9 * JAN-MAR MON-FRI ",
    ]) {
      expect(validateCron(e)).toBeUndefined();
    }
  });

  it("names the problem in the message", () => {
    expect(validateCron("")).toBe("Cron expression is empty");
    expect(validateCron("0 9 * *")).toBe(`Cron expression "0 9 * *" has 4 fields; ${FIELDS}`);
    expect(validateCron("@daily")).toBe(`Cron expression "@daily" has 1 field; ${FIELDS}`);
    expect(validateCron("0 0 9 * * * 2025")).toBe(
      `Cron expression "0 0 9 * * * 2025" has 7 fields; ${FIELDS}`,
    );
    expect(validateCron("61 * * * *")).toBe(
      'Invalid cron expression "61 * * * *": Constraint error, got value 61 expected range 0-59',
    );
    expect(validateCron("0 25 * * *")).toBe(
      'Invalid cron expression "0 25 * * *": Constraint error, got value 25 expected range 0-23',
    );
    expect(validateCron("0 0 30 2 *")).toBe(
      'Invalid cron expression "0 0 30 2 *": Invalid explicit day of month definition',
    );
    expect(validateCron("abc * * * *")).toBe(
      'Invalid cron expression "abc * * * *": Invalid characters, got value: abc',
    );
    expect(validateCron("H * * * *")).toBe(
      'Cron expression "H * * * *" uses "H" (hashed values), which is not supported',
    );
  });
});

describe("validateTimezone", () => {
  it("accepts IANA names and rejects anything else with the same message", () => {
    expect(validateTimezone("Europe/Berlin")).toBeUndefined();
    expect(validateTimezone("UTC")).toBeUndefined();
    expect(validateTimezone("Mars/Olympus")).toBe(
      'Unknown time zone "Mars/Olympus"; use an IANA name such as "Europe/Berlin" or "UTC"',
    );
    expect(validateTimezone("")).toBe(
      'Unknown time zone ""; use an IANA name such as "Europe/Berlin" or "UTC"',
    );
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
