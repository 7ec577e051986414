// SQL of the run list's status counts (the list itself is in run-query.ts).
import { sqlDate } from "../dates";
import {
  type BuiltQuery,
  baseConditions,
  docConditions,
  join,
  type RunFilterSql,
  searchFrom,
} from "./run-query";

const HOUR_MS = 3_600_000;
/** Counting matches of a search stops here; the UI shows "10 000+" rather than scan further. */
export const SEARCH_COUNT_CAP = 10_000;

const hourKey = (ms: number) => sqlDate(ms).slice(0, 13);

/**
 * Status counts as a sum of queries: all time from RunTotal, whole hours from RunCount (both kept by triggers), the
 * partial hours at the ends of a time range from Run itself (at most two hours of runs, by index).
 * With a search, the matching runs are counted up to SEARCH_COUNT_CAP + 1.
 */
export function buildCountQueries(f: RunFilterSql): { sql: string; args: (string | number)[] }[] {
  const channelIn = f.channels?.length
    ? { sql: `channel IN (${f.channels.map(() => "?").join(", ")})`, args: f.channels }
    : undefined;
  const runWhere = (from?: number, to?: number) =>
    join(
      [...baseConditions({ ...f, fromMs: from, toMs: to }), ...(channelIn ? [channelIn] : [])].filter(
        (c) => c.sql !== "",
      ),
    );
  const scanRuns = (from?: number, to?: number) => {
    const w = runWhere(from, to);
    const where = w.sql ? `WHERE ${w.sql}` : "";
    return { sql: `SELECT status, count(*) AS n FROM "RunSearchDoc" ${where} GROUP BY status`, args: w.args };
  };
  if (f.match !== undefined) {
    const w = join(docConditions(f));
    return [
      {
        sql: `SELECT status, count(*) AS n FROM (SELECT d.status FROM ${searchFrom} WHERE ${w.sql} LIMIT ?) GROUP BY status`,
        args: [...w.args, SEARCH_COUNT_CAP + 1],
      },
    ];
  }
  const counters = (fromHour?: string, toHour?: string) => {
    const conds: BuiltQuery[] = [];
    if (f.flowId !== undefined) conds.push({ sql: "flowId = ?", args: [f.flowId] });
    if (channelIn) conds.push(channelIn);
    if (fromHour !== undefined) conds.push({ sql: "hour >= ?", args: [fromHour] });
    if (toHour !== undefined) conds.push({ sql: "hour < ?", args: [toHour] });
    const w = join(conds);
    const where = w.sql ? `WHERE ${w.sql}` : "";
    return { sql: `SELECT status, sum(n) AS n FROM "RunCount" ${where} GROUP BY status`, args: w.args };
  };
  const { fromMs, toMs } = f;
  if (fromMs === undefined && toMs === undefined) {
    // All time: RunTotal has one row per flow, channel and status, however many hours runs span.
    const w = join([
      ...(f.flowId !== undefined ? [{ sql: "flowId = ?", args: [f.flowId] }] : []),
      ...(channelIn ? [channelIn] : []),
    ]);
    return [
      {
        sql: `SELECT status, sum(n) AS n FROM "RunTotal" ${w.sql ? `WHERE ${w.sql}` : ""} GROUP BY status`,
        args: w.args,
      },
    ];
  }
  const wholeFrom = fromMs === undefined ? undefined : Math.ceil(fromMs / HOUR_MS) * HOUR_MS;
  const wholeTo = toMs === undefined ? undefined : Math.floor(toMs / HOUR_MS) * HOUR_MS;
  if (wholeFrom !== undefined && wholeTo !== undefined && wholeFrom >= wholeTo)
    return [scanRuns(fromMs, toMs)];
  const out = [
    counters(
      wholeFrom === undefined ? undefined : hourKey(wholeFrom),
      wholeTo === undefined ? undefined : hourKey(wholeTo),
    ),
  ];
  if (fromMs !== undefined && wholeFrom !== undefined && fromMs < wholeFrom)
    out.push(scanRuns(fromMs, wholeFrom));
  if (toMs !== undefined && wholeTo !== undefined && wholeTo < toMs) out.push(scanRuns(wholeTo, toMs));
  return out;
}
