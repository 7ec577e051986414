import type { RunVolume } from "@switchyard/db";
import { BUDGET_WARNING_RATIO, type RetentionPolicy } from "./policy";
import type { DatabaseSize } from "./reclaim";

export interface StorageStatus {
  size: DatabaseSize;
  runs: RunVolume;
  /** Bytes the database grows by per day at the last day's pace: runs of the last 24 h × bytes per run. */
  growthBytesPerDay: number;
  budgetBytes: number | null;
  /** Used pages (file minus free pages, plus the WAL) over the budget; null without a budget. */
  budgetUsed: number | null;
  /** Days until the budget is reached at that pace; null without a budget or without growth. */
  daysToBudget: number | null;
  /** Set from BUDGET_WARNING_RATIO of the budget on: what the UI shows before runs are deleted for room. */
  warning: string | null;
}

const mb = (b: number) => `${Math.round(b / 1024 / 1024).toLocaleString("en")} MB`;

/** Pure: the figures the retention page shows, from the database's size, its run counts and the policy. */
export function storageStatus(size: DatabaseSize, runs: RunVolume, policy: RetentionPolicy): StorageStatus {
  const used = size.databaseBytes - size.freeBytes + size.walBytes;
  const perRun = runs.total > 0 ? (size.databaseBytes - size.freeBytes) / runs.total : 0;
  const growthBytesPerDay = Math.round(runs.lastDay * perRun);
  const budgetBytes = policy.storageBudgetMb === undefined ? null : policy.storageBudgetMb * 1024 * 1024;
  const budgetUsed = budgetBytes === null ? null : used / budgetBytes;
  const daysToBudget =
    budgetBytes === null || growthBytesPerDay === 0
      ? null
      : Math.max(0, (budgetBytes - used) / growthBytesPerDay);
  let warning: string | null = null;
  if (budgetBytes !== null && budgetUsed !== null && budgetUsed >= BUDGET_WARNING_RATIO) {
    const pct = Math.round(budgetUsed * 100);
    warning =
      budgetUsed >= 1
        ? `The database (${mb(used)}) is over its ${mb(budgetBytes)} storage budget: the next pruning deletes the oldest finished runs until it fits.`
        : `The database is at ${pct} % of its ${mb(budgetBytes)} storage budget${daysToBudget === null ? "" : ` (full in about ${Math.ceil(daysToBudget)} days at the last day's pace)`}: beyond it, the oldest finished runs are deleted.`;
  }
  return { size, runs, growthBytesPerDay, budgetBytes, budgetUsed, daysToBudget, warning };
}
