/** Colours per run/step/node status, shared by the list, the graph, the waterfall and the inspector. */
export const statusTone: Record<string, string> = {
  succeeded: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  failed: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  timed_out: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  running: "bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200",
  retrying: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  waiting: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  cancelled: "bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200",
  queued: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  skipped: "bg-slate-100 text-slate-400 dark:bg-slate-800 dark:text-slate-500",
  pending: "bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400",
  not_run: "bg-slate-100 text-slate-400 dark:bg-slate-800 dark:text-slate-500",
};

/** Solid colours for waterfall bars and node borders. */
export const statusBar: Record<string, string> = {
  succeeded: "bg-emerald-500",
  failed: "bg-red-500",
  timed_out: "bg-red-500",
  running: "bg-blue-500 animate-pulse",
  retrying: "bg-amber-500",
  waiting: "bg-amber-400",
  cancelled: "bg-slate-400",
  skipped: "bg-slate-300 dark:bg-slate-600",
};

export const statusBorder: Record<string, string> = {
  succeeded: "border-emerald-500",
  failed: "border-red-500",
  timed_out: "border-red-500",
  running: "border-blue-500",
  retrying: "border-amber-500",
  waiting: "border-amber-400",
  cancelled: "border-slate-400",
};

export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    <span
      data-testid={testId}
      data-status={status}
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusTone[status] ?? statusTone.queued}`}
    >
      {status.replace("_", " ")}
    </span>
  );
}
