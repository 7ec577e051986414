/** The run list's filters as they live in the URL (shareable, survive reloads). */
import { type RunChannel, type RunStatus, runChannels, runStatuses } from "@switchyard/contracts/runs";

export const sorts = ["newest", "oldest", "duration"] as const;

type Sort = (typeof sorts)[number];

export interface RunFilters {
  flowId?: string;
  status?: RunStatus[];
  channel?: RunChannel[];
  from?: string;
  to?: string;
  search?: string;
  sort?: Sort;
}

const pick = <T extends string>(allowed: readonly T[], raw: string | null): T[] | undefined => {
  const v = (raw ?? "").split(",").filter((x): x is T => (allowed as readonly string[]).includes(x));
  return v.length ? v : undefined;
};
const isoOrUndefined = (raw: string | null) =>
  raw && !Number.isNaN(Date.parse(raw)) ? new Date(raw).toISOString() : undefined;

export function filtersFromParams(p: URLSearchParams): RunFilters {
  const sort = p.get("sort");
  return {
    flowId: p.get("flowId") || undefined,
    status: pick(runStatuses, p.get("status")),
    channel: pick(runChannels, p.get("channel")),
    from: isoOrUndefined(p.get("from")),
    to: isoOrUndefined(p.get("to")),
    search: p.get("q")?.trim() || undefined,
    sort: (sorts as readonly string[]).includes(sort ?? "") ? (sort as Sort) : undefined,
  };
}

export function paramsFromFilters(f: RunFilters): string {
  const p = new URLSearchParams();
  if (f.flowId) p.set("flowId", f.flowId);
  if (f.status?.length) p.set("status", f.status.join(","));
  if (f.channel?.length) p.set("channel", f.channel.join(","));
  if (f.from) p.set("from", f.from);
  if (f.to) p.set("to", f.to);
  if (f.search) p.set("q", f.search);
  if (f.sort && f.sort !== "newest") p.set("sort", f.sort);
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** `datetime-local` input value (local time, minutes) ↔ ISO. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
