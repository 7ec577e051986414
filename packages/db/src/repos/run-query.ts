// SQL of the run list (and, in run-count-query.ts, its status counts): where a port to another database starts.
// (On PostgreSQL the same shape works with the same indexes; RunSearch becomes a tsvector column with a
// GIN index or pg_trgm, and the RunCount triggers become PL/pgSQL triggers.)
import { sqlDate } from "../dates";

export type RunSort = "newest" | "oldest" | "duration";

/** Filters in the database's own terms: times as stored text, search as an FTS5 query. */
export interface RunFilterSql {
  flowId?: string;
  statuses?: string[];
  channels?: string[];
  fromMs?: number;
  toMs?: number;
  match?: string;
}

export interface CursorKey {
  id: string;
  /** createdAt in ms for the time sorts; durationMs (null = unfinished) for the duration sort. */
  key: number | null;
}

export interface BuiltQuery {
  sql: string;
  args: (string | number)[];
}

export const listColumns = `r.id, r.flowId, r.flowVersion, r.status, r.channel, r.createdAt, r.startedAt, r.endedAt,
  r.durationMs, r.errorCode, r.errorMessage, r.errorNodeId, r.rerunOf, f.name AS flowName`;

const orderBy: Record<RunSort, string> = {
  newest: "createdAt DESC, id DESC",
  oldest: "createdAt ASC, id ASC",
  // SQLite sorts NULL below every number, so unfinished runs (no duration) come last in DESC order.
  duration: "durationMs DESC, id DESC",
};

/** Keyset condition on RunSearchDoc, where the run's id is `runId`. */
function keyset(sort: RunSort, c: CursorKey): BuiltQuery {
  if (sort === "duration") {
    if (c.key === null) return { sql: "durationMs IS NULL AND runId < ?", args: [c.id] };
    return {
      sql: "(durationMs < ? OR (durationMs = ? AND runId < ?) OR durationMs IS NULL)",
      args: [c.key, c.key, c.id],
    };
  }
  const at = sqlDate(c.key ?? 0);
  // The leading range lets the index seek straight to the cursor instead of filtering up to it.
  return sort === "newest"
    ? { sql: "createdAt <= ? AND (createdAt < ? OR runId < ?)", args: [at, at, c.id] }
    : { sql: "createdAt >= ? AND (createdAt > ? OR runId > ?)", args: [at, at, c.id] };
}

/** Conditions on RunSearchDoc shared by the list and the counts: flow, channel, time range (not status, not search). */
export function baseConditions(f: RunFilterSql, channel?: string): BuiltQuery[] {
  const out: BuiltQuery[] = [];
  if (f.flowId !== undefined) out.push({ sql: "flowId = ?", args: [f.flowId] });
  if (channel !== undefined) out.push({ sql: "channel = ?", args: [channel] });
  if (f.fromMs !== undefined) out.push({ sql: "createdAt >= ?", args: [sqlDate(f.fromMs)] });
  if (f.toMs !== undefined) out.push({ sql: "createdAt < ?", args: [sqlDate(f.toMs)] });
  return out;
}

export const join = (parts: BuiltQuery[], sep = " AND "): BuiltQuery => ({
  sql: parts.map((p) => p.sql).join(sep),
  args: parts.flatMap((p) => p.args),
});
const orNone = <T>(values: T[] | undefined): (T | undefined)[] => (values?.length ? values : [undefined]);

/**
 * The index a branch reads, named rather than left to the planner: without statistics SQLite prefers a
 * short index with a time range over the one matching every equality filter, and reads far more rows.
 * (Searches read the full-text index instead: see searchKeys.)
 */
export function indexFor(
  flowId: string | undefined,
  status: string | undefined,
  channel: string | undefined,
  sort: RunSort,
): string {
  const cols = [
    flowId !== undefined && "flowId",
    status !== undefined && "status",
    channel !== undefined && "channel",
  ];
  const filters = cols.filter(Boolean);
  if (sort === "duration") {
    // One filter: walk its duration index. Several: their combined index finds the (smaller) intersection,
    // which is then sorted; walking one filter's duration index would read all of its runs when the
    // intersection is rare.
    if (filters.length === 0) return "RunSearchDoc_durationMs_idx";
    if (filters.length === 1) return `RunSearchDoc_${filters[0]}_durationMs_idx`;
  }
  return `RunSearchDoc_${[...filters, "createdAt"].join("_")}_idx`;
}

/**
 * One page of runs. Several statuses or channels become one branch per combination, each an ordered
 * scan of the index on (flow?, status?, channel?, createdAt) that stops after a page; the branches are
 * merged and cut to the page. SQLite cannot keep `status IN (…)` ordered by a later column, and would
 * otherwise sort every matching run.
 */
export function buildListQuery(
  f: RunFilterSql,
  sort: RunSort,
  cursor: CursorKey | null,
  take: number,
  scan = SEARCH_SCAN,
): BuiltQuery {
  if (f.match !== undefined) {
    const keys = searchKeys(f, sort, cursor, take, scan);
    return sort === "duration" ? withColumns(keys, sort) : withDocColumns(keys, sort);
  }
  const branches: BuiltQuery[] = [];
  for (const status of orNone(f.statuses))
    for (const channel of orNone(f.channels)) {
      const conds = baseConditions(f, channel);
      if (status !== undefined) conds.unshift({ sql: "status = ?", args: [status] });
      if (cursor) conds.push(keyset(sort, cursor));
      const where = conds.length ? `WHERE ${join(conds).sql}` : "";
      // The run list's indexes are on its documents (RunSearchDoc), which the caller brought up to date.
      const from = `"RunSearchDoc" INDEXED BY "${indexFor(f.flowId, status, channel, sort)}"`;
      branches.push({
        sql: `SELECT runId AS id, createdAt, durationMs FROM ${from} ${where} ORDER BY ${orderBy[sort].replace(/\bid\b/, "runId")} LIMIT ?`,
        args: [...join(conds).args, take],
      });
    }
  const keys =
    branches.length === 1
      ? branches[0]!
      : {
          sql: `SELECT * FROM (${branches.map((b) => `SELECT * FROM (${b.sql})`).join(" UNION ALL ")}) ORDER BY ${orderBy[sort]} LIMIT ?`,
          args: [...branches.flatMap((b) => b.args), take],
        };
  return withColumns(keys, sort);
}

/** The page's columns for the ids a key query picked, in the same order. */
function withColumns(keys: BuiltQuery, sort: RunSort): BuiltQuery {
  const outer = orderBy[sort].replace(/(\w+) (ASC|DESC)/g, "r.$1 $2");
  return {
    sql: `SELECT ${listColumns}, NULL AS doc FROM (${keys.sql}) k JOIN "Run" r ON r.id = k.id JOIN "Flow" f ON f.id = r.flowId ORDER BY ${outer}`,
    args: keys.args,
  };
}

/** Search pages keep the walk's order and carry each run's document rowid for the cursor. */
function withDocColumns(keys: BuiltQuery, sort: RunSort): BuiltQuery {
  return {
    sql: `SELECT ${listColumns}, k.doc AS doc FROM (${keys.sql}) k JOIN "Run" r ON r.id = k.id JOIN "Flow" f ON f.id = r.flowId ORDER BY k.doc ${sort === "newest" ? "DESC" : "ASC"}`,
    args: keys.args,
  };
}

/** Search filters over RunSearchDoc, whose rows carry their run's createdAt, flow, channel and status. */
export function docConditions(f: RunFilterSql): BuiltQuery[] {
  const out: BuiltQuery[] = [{ sql: `"RunSearch" MATCH ?`, args: [f.match!] }];
  if (f.flowId !== undefined) out.push({ sql: "d.flowId = ?", args: [f.flowId] });
  if (f.channels?.length)
    out.push({ sql: `d.channel IN (${f.channels.map(() => "?").join(", ")})`, args: f.channels });
  if (f.fromMs !== undefined) out.push({ sql: "d.createdAt >= ?", args: [sqlDate(f.fromMs)] });
  if (f.toMs !== undefined) out.push({ sql: "d.createdAt < ?", args: [sqlDate(f.toMs)] });
  if (f.statuses?.length)
    out.push({ sql: `d.status IN (${f.statuses.map(() => "?").join(", ")})`, args: f.statuses });
  return out;
}

export const searchFrom = `"RunSearch" JOIN "RunSearchDoc" d ON d.id = "RunSearch".rowid`;

/**
 * A search page walks the full-text matches by rowid (admission order: newest first, or oldest first)
 * and stops when the page is full; nothing is sorted. Every filter is checked on the match's small
 * RunSearchDoc row. The cursor is the last document's rowid. Longest first sorts the matches' rows.
 */
function searchKeys(
  f: RunFilterSql,
  sort: RunSort,
  cursor: CursorKey | null,
  take: number,
  scan: number,
): BuiltQuery {
  const conds = docConditions(f);
  if (sort === "duration") {
    if (cursor)
      conds.push(
        cursor.key === null
          ? { sql: "d.durationMs IS NULL AND d.runId < ?", args: [cursor.id] }
          : {
              sql: "(d.durationMs < ? OR (d.durationMs = ? AND d.runId < ?) OR d.durationMs IS NULL)",
              args: [cursor.key, cursor.key, cursor.id],
            },
      );
    const w = join(conds);
    return {
      sql: `SELECT d.runId AS id FROM ${searchFrom} WHERE ${w.sql} ORDER BY d.durationMs DESC, d.runId DESC LIMIT ?`,
      args: [...w.args, take],
    };
  }
  const newest = sort === "newest";
  const [match, ...filters] = conds;
  const walk: BuiltQuery[] = [match!];
  if (cursor) walk.push({ sql: `"RunSearch".rowid ${newest ? "<" : ">"} ?`, args: [cursor.key ?? 0] });
  const w = join(walk);
  const hit = filters.length ? join(filters) : { sql: "1", args: [] };
  // The walk reads at most SEARCH_SCAN matches per page; searchScanEdge finds where it stopped when
  // the page came out short, so the next page carries on from there.
  return {
    sql: `SELECT id, doc FROM (SELECT d.runId AS id, d.id AS doc, (${hit.sql}) AS hit FROM ${searchFrom} WHERE ${w.sql}
          ORDER BY "RunSearch".rowid ${newest ? "DESC" : "ASC"} LIMIT ?) WHERE hit LIMIT ?`,
    args: [...hit.args, ...w.args, scan, take],
  };
}

/**
 * Matches a search page's walk may read. With filters that few matches pass (a common word, a rare
 * status), a page can come out short: its cursor then points past the matches read, and the next page
 * reads on. Bounds every page's work; the last page is the one whose cursor is null.
 */
export const SEARCH_SCAN = 20_000;

/** Where a capped walk stopped: the number of matches it read, and the last one's rowid. */
export function searchScanEdge(
  f: RunFilterSql,
  sort: RunSort,
  cursor: CursorKey | null,
  scan = SEARCH_SCAN,
): BuiltQuery {
  const newest = sort === "newest";
  const walk: BuiltQuery[] = [{ sql: `"RunSearch" MATCH ?`, args: [f.match!] }];
  if (cursor) walk.push({ sql: `rowid ${newest ? "<" : ">"} ?`, args: [cursor.key ?? 0] });
  const w = join(walk);
  return {
    sql: `SELECT count(*) AS read, ${newest ? "min" : "max"}(rowid) AS edge FROM (SELECT rowid FROM "RunSearch" WHERE ${w.sql}
          ORDER BY rowid ${newest ? "DESC" : "ASC"} LIMIT ?)`,
    args: [...w.args, scan],
  };
}
