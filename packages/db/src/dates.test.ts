import { describe, expect, it } from "vitest";
import { sqlDate } from "./dates";

describe("sqlDate", () => {
  it("writes Prisma's SQLite DateTime text for dates and epoch milliseconds alike", () => {
    expect(sqlDate(Date.UTC(2026, 11, 1, 3, 4, 5, 67))).toBe("2026-12-01T03:04:05.067+00:00");
    expect(sqlDate(new Date(Date.UTC(2026, 11, 1, 3, 4, 5, 67)))).toBe("2026-12-01T03:04:05.067+00:00");
  });

  it("gives each millisecond its own text even when asked alternately", () => {
    const a = Date.UTC(2026, 0, 1);
    expect([sqlDate(a), sqlDate(a + 1), sqlDate(a), sqlDate(a)]).toEqual([
      "2026-01-01T00:00:00.000+00:00",
      "2026-01-01T00:00:00.001+00:00",
      "2026-01-01T00:00:00.000+00:00",
      "2026-01-01T00:00:00.000+00:00",
    ]);
  });

  it("refuses an invalid date instead of writing garbage", () => {
    expect(() => sqlDate(Number.NaN)).toThrow(RangeError);
  });
});
