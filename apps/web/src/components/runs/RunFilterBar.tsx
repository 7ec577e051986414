"use client";

import { useEffect, useState } from "react";
import { type RunChannel, type RunStatus, runChannels, runStatuses } from "@switchyard/contracts/runs";
import { type RunFilters, type sorts, toLocalInput } from "./run-filters";
import { statusTone } from "./status";

const input =
  "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900";

/** Status chips with counts, channel, time range, text search and sort. */
export function RunFilterBar({
  filters,
  counts,
  flows,
  onChange,
}: {
  filters: RunFilters;
  /** `capped`: a search matched more runs than were counted; the figures are a lower bound. */
  counts?: { total: number; byStatus: Record<string, number>; capped?: boolean };
  flows: { id: string; name: string }[];
  onChange: (f: RunFilters) => void;
}) {
  const [search, setSearch] = useState(filters.search ?? "");
  useEffect(() => setSearch(filters.search ?? ""), [filters.search]);
  const toggleStatus = (s: RunStatus) => {
    const cur = new Set(filters.status ?? []);
    if (cur.has(s)) cur.delete(s);
    else cur.add(s);
    onChange({ ...filters, status: cur.size ? [...cur] : undefined });
  };
  return (
    <div className="space-y-3">
      <fieldset className="flex flex-wrap items-center gap-2" aria-label="Status">
        <button
          type="button"
          aria-pressed={!filters.status}
          onClick={() => onChange({ ...filters, status: undefined })}
          className={`rounded-full border px-3 py-1 text-xs font-medium ${!filters.status ? "border-brand-500 bg-brand-50 text-brand-700 dark:bg-slate-800" : "border-slate-300 dark:border-slate-700"}`}
        >
          All{" "}
          <span
            data-testid="count-all"
            title={counts?.capped ? "More runs match than were counted" : undefined}
          >
            {counts ? (counts.capped ? `${(counts.total - 1).toLocaleString()}+` : counts.total) : "…"}
          </span>
        </button>
        {runStatuses.map((s) => {
          const on = filters.status?.includes(s) ?? false;
          return (
            <button
              type="button"
              key={s}
              aria-pressed={on}
              data-testid={`status-chip-${s}`}
              onClick={() => toggleStatus(s)}
              className={`rounded-full px-3 py-1 text-xs font-medium ${statusTone[s]} ${on ? "ring-2 ring-brand-500" : "opacity-80"}`}
            >
              {s.replace("_", " ")} <span data-testid={`count-${s}`}>{counts?.byStatus[s] ?? 0}</span>
            </button>
          );
        })}
      </fieldset>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          onChange({ ...filters, search: search.trim() || undefined });
        }}
      >
        <label className="flex flex-col gap-1 text-xs text-slate-500">
          Flow
          <select
            aria-label="Flow"
            className={input}
            value={filters.flowId ?? ""}
            onChange={(e) => onChange({ ...filters, flowId: e.target.value || undefined })}
          >
            <option value="">All flows</option>
            {flows.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs text-slate-500">
          Channel
          <select
            aria-label="Channel"
            className={input}
            value={filters.channel?.[0] ?? ""}
            onChange={(e) =>
              onChange({
                ...filters,
                channel: e.target.value ? [e.target.value as RunChannel] : undefined,
              })
            }
          >
            <option value="">Any channel</option>
            {runChannels.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs text-slate-500">
          From
          <input
            aria-label="From"
            type="datetime-local"
            className={input}
            value={toLocalInput(filters.from)}
            onChange={(e) =>
              onChange({
                ...filters,
                from: e.target.value ? new Date(e.target.value).toISOString() : undefined,
              })
            }
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-slate-500">
          To
          <input
            aria-label="To"
            type="datetime-local"
            className={input}
            value={toLocalInput(filters.to)}
            onChange={(e) =>
              onChange({
                ...filters,
                to: e.target.value ? new Date(e.target.value).toISOString() : undefined,
              })
            }
          />
        </label>
        <label className="flex flex-1 flex-col gap-1 text-xs text-slate-500">
          Search errors and payloads
          <input
            aria-label="Search runs"
            type="search"
            className={input}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="e.g. timeout, order 1234"
            title="Finds runs whose error, step errors or payload (its first 8 KB) contain every word typed; a word also matches as the start of a longer one"
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-slate-500">
          Sort
          <select
            aria-label="Sort"
            className={input}
            value={filters.sort ?? "newest"}
            onChange={(e) => onChange({ ...filters, sort: e.target.value as (typeof sorts)[number] })}
          >
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
            <option value="duration">Longest first</option>
          </select>
        </label>
        <button
          type="submit"
          className="rounded-md bg-brand-500 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-600"
        >
          Search
        </button>
      </form>
    </div>
  );
}
