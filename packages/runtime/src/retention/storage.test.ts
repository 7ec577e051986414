import { describe, expect, it } from "vitest";
import { RetentionPolicy } from "./policy";
import type { DatabaseSize } from "./reclaim";
import { storageStatus } from "./storage";

const MB = 1024 * 1024;
const size = (usedMb: number, freeMb = 0, walMb = 0): DatabaseSize => ({
  pageSize: 4096,
  pageCount: ((usedMb + freeMb) * MB) / 4096,
  freePages: (freeMb * MB) / 4096,
  databaseBytes: (usedMb + freeMb) * MB,
  freeBytes: freeMb * MB,
  walBytes: walMb * MB,
  totalBytes: (usedMb + freeMb + walMb) * MB,
  autoVacuum: "incremental",
});
const policy = (storageBudgetMb?: number) => RetentionPolicy.parse({ storageBudgetMb });

describe("storage status", () => {
  it("estimates a day's growth from the last day's runs times the bytes a stored run takes", () => {
    const s = storageStatus(size(100, 20), { total: 10_000, lastDay: 500 }, policy());
    expect(s.growthBytesPerDay).toBe(5 * MB);
    expect([s.budgetBytes, s.budgetUsed, s.daysToBudget, s.warning]).toEqual([null, null, null, null]);
  });

  it("stays quiet below 80 % of the budget, counting used pages and the WAL but not free pages", () => {
    const s = storageStatus(size(70, 50, 9), { total: 1000, lastDay: 0 }, policy(100));
    expect(s.budgetUsed).toBeCloseTo(0.79);
    expect(s.warning).toBeNull();
  });

  it("warns from 80 % of the budget with the days left at the last day's pace", () => {
    const s = storageStatus(size(85), { total: 1000, lastDay: 20 }, policy(100));
    expect(s.daysToBudget).toBeCloseTo(15 / 1.7);
    expect(s.warning).toBe(
      "The database is at 85 % of its 100 MB storage budget (full in about 9 days at the last day's pace): beyond it, the oldest finished runs are deleted.",
    );
  });

  it("says the next pruning deletes runs once the budget is exceeded", () => {
    const s = storageStatus(size(130), { total: 1000, lastDay: 0 }, policy(100));
    expect(s.warning).toBe(
      "The database (130 MB) is over its 100 MB storage budget: the next pruning deletes the oldest finished runs until it fits.",
    );
  });
});
