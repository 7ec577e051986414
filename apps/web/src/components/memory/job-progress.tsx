"use client";

import { ErrorBox } from "@/components/page";

interface Job {
  label: string;
  state: "running" | "done" | "failed";
  done: number;
  total: number;
  error?: string;
}

/** A labelled progress bar for an import or re-index job; the failure is shown right here. */
export function JobProgress({ job, summary }: { job: Job; summary?: string }) {
  const percent = job.total > 0 ? Math.floor((job.done / job.total) * 100) : 0;
  return (
    <div className="space-y-2" data-testid="job-progress">
      <div className="flex justify-between text-sm">
        <span>{job.label}</span>
        <span data-testid="job-percent">{job.state === "failed" ? "failed" : `${percent}%`}</span>
      </div>
      <div
        role="progressbar"
        aria-label={job.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div
          className={`h-full ${job.state === "failed" ? "bg-red-500" : "bg-brand-500"} transition-[width]`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {job.state === "running"
          ? job.total > 0
            ? `${job.done} of ${job.total} items`
            : "reading the file…"
          : job.state === "done"
            ? (summary ?? "Done.")
            : null}
      </p>
      {job.state === "failed" && job.error ? <ErrorBox message={job.error} /> : null}
    </div>
  );
}
