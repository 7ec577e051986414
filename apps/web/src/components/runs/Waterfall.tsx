"use client";

import { statusBar } from "./status";
import { formatMs, type WaterfallBar } from "./trace-model";

/** Timeline of steps: one row per attempt, offset from the run start, width = duration. */
export function Waterfall({
  bars,
  totalMs,
  nameOf,
  selected,
  onSelect,
}: {
  bars: WaterfallBar[];
  totalMs: number;
  nameOf: (nodeId: string) => string;
  selected: string | null;
  onSelect: (bar: WaterfallBar) => void;
}) {
  if (bars.length === 0) return <p className="text-sm text-slate-500">No steps yet.</p>;
  return (
    <div data-testid="waterfall" className="space-y-1">
      <div className="flex justify-between pl-48 text-[10px] text-slate-400">
        <span>0</span>
        <span>{formatMs(totalMs / 2)}</span>
        <span>{formatMs(totalMs)}</span>
      </div>
      {bars.map((b) => {
        const left = (b.offsetMs / totalMs) * 100;
        const width = Math.max(0.4, (b.durationMs / totalMs) * 100);
        const label = `${nameOf(b.nodeId)}${b.visit > 1 ? ` (visit ${b.visit})` : ""}${b.attempt > 1 ? ` · attempt ${b.attempt}` : ""}`;
        return (
          <button
            type="button"
            key={b.key}
            data-testid="waterfall-bar"
            data-node-id={b.nodeId}
            data-attempt={b.attempt}
            data-status={b.status}
            disabled={!b.stepRowId}
            onClick={() => onSelect(b)}
            className={`flex w-full items-center gap-2 rounded px-1 py-0.5 text-left text-xs hover:bg-slate-100 dark:hover:bg-slate-800 ${
              selected && selected === b.stepRowId ? "bg-brand-50 dark:bg-slate-800" : ""
            }`}
          >
            <span className="w-46 shrink-0 truncate" title={label}>
              {label}
            </span>
            <span className="relative h-4 flex-1 rounded bg-slate-100 dark:bg-slate-800">
              <span
                className={`absolute top-0 h-4 rounded ${statusBar[b.status] ?? "bg-slate-400"}`}
                style={{
                  left: `${Math.min(left, 99.6)}%`,
                  width: `${Math.min(width, 100 - Math.min(left, 99.6))}%`,
                }}
              />
            </span>
            <span className="w-32 shrink-0 whitespace-nowrap text-right tabular-nums text-slate-500">
              +{formatMs(b.offsetMs)} · {formatMs(b.durationMs)}
            </span>
          </button>
        );
      })}
    </div>
  );
}
