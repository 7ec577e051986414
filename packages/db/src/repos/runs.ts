import type Database from "better-sqlite3";
import { liveRunStatuses } from "@switchyard/contracts/runs";
import type { PrismaClient, Prisma } from "../generated/prisma/client";
import {
  buildListQuery,
  type CursorKey,
  type RunFilterSql,
  type RunSort,
  SEARCH_SCAN,
  searchScanEdge,
} from "./run-query";
import { buildCountQueries, SEARCH_COUNT_CAP } from "./run-count-query";
import { countRunsPostgres, listRunsPostgres } from "./run-list-postgres";
import { toFtsQuery } from "./run-search";
import { createRunSearchIndexer } from "./run-search-indexer";

export type { RunSort };

/**
 * Opaque page token "<key|n>~<id>": the sort key (createdAt in ms, or the duration) and the id; a
 * search's time-ordered pages use "s<document rowid>" (where the walk of the full-text index goes on).
 */
function encodeCursor(
  sort: RunSort,
  last: { id: string; createdAt: string; durationMs: number | null; doc: number | null },
): string {
  if (last.doc !== null) return `s${last.doc}`;
  const key = sort === "duration" ? last.durationMs : Date.parse(last.createdAt);
  return `${key ?? "n"}~${last.id}`;
}

export interface RunListQuery {
  flowId?: string;
  /** One status or several (any of). */
  status?: string | string[];
  /** One channel or several (any of). */
  channel?: string | string[];
  /** Created at or after this time. */
  from?: Date | string;
  /** Created before this time. */
  to?: Date | string;
  /** Words in the run's error, a step's error or the start of the trigger payload (see run-search.ts). */
  search?: string;
  sort?: RunSort;
  limit?: number;
  /** `nextCursor` of the previous page (for the time sorts, also a plain run id). */
  cursor?: string;
}

/** Step columns without the (possibly MiB-sized) input and output: the trace view loads those per step. */
const stepSummarySelect = {
  id: true,
  stepId: true,
  nodeId: true,
  visit: true,
  attempt: true,
  status: true,
  port: true,
  reason: true,
  errorCode: true,
  errorMessage: true,
  resumeAt: true,
  retryAt: true,
  startedAt: true,
  endedAt: true,
  durationMs: true,
  truncated: true,
} satisfies Prisma.StepSelect;

/** Columns of a run in lists and the trace header (the trace adds payload, output and steps). */
const listSelect = {
  id: true,
  flowId: true,
  flowVersion: true,
  status: true,
  channel: true,
  createdAt: true,
  startedAt: true,
  endedAt: true,
  durationMs: true,
  errorCode: true,
  errorMessage: true,
  errorNodeId: true,
  rerunOf: true,
  flow: { select: { name: true } },
} satisfies Prisma.RunSelect;

interface ListRow {
  id: string;
  flowId: string;
  flowVersion: number;
  status: string;
  channel: string;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  errorNodeId: string | null;
  rerunOf: string | null;
  flowName: string;
  doc: number | null;
}

const asList = (v: string | string[] | undefined) =>
  v === undefined ? undefined : Array.isArray(v) ? v : [v];
const date = (v: string | null) => (v === null ? null : new Date(v));

function timeOf(name: "from" | "to", v: Date | string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const ms = new Date(v).getTime();
  if (Number.isNaN(ms)) throw new RangeError(`"${name}" is not a date: ${String(v)}`);
  return ms;
}

/** Every filter except status and paging, in SQL terms: status counts are taken over this. */
function toSqlFilter(q: RunListQuery): RunFilterSql {
  const search = q.search?.trim();
  return {
    flowId: q.flowId || undefined,
    channels: asList(q.channel),
    fromMs: timeOf("from", q.from),
    toMs: timeOf("to", q.to),
    match: search ? toFtsQuery(search) : undefined,
  };
}

/** Read side of runs for lists and detail views; writing belongs to the run queue. */
export function createRunRepo(
  prisma: PrismaClient,
  /** The SQLite connection the list and counts run on, or "postgres": they go through Prisma there. */
  sql: Database.Database | "postgres",
  /** Matches a search page reads at most (tests lower it to reach the limit with few runs). */
  o: { searchScan?: number } = {},
) {
  const searchScan = o.searchScan ?? SEARCH_SCAN;
  const statements = new Map<string, Database.Statement>();
  const prepared = (text: string) => {
    if (sql === "postgres") throw new Error("no SQLite statements on PostgreSQL");
    let st = statements.get(text);
    if (!st) {
      if (statements.size > 500) statements.clear(); // filter shapes are few; this only bounds a flood
      st = sql.prepare(text);
      statements.set(text, st);
    }
    return st;
  };
  const createdAtOf = sql === "postgres" ? undefined : prepared(`SELECT createdAt FROM "Run" WHERE id = ?`);
  // Admission leaves search documents for the indexer; a search first adds the waiting ones, so it sees
  // every run admitted before it, as when the triggers indexed them.
  const searchIndex = sql === "postgres" ? undefined : createRunSearchIndexer(sql);

  /** Cursor back to a key; a plain run id (what earlier versions returned) is looked up. */
  function decodeCursor(sort: RunSort, cursor: string | undefined, search: boolean): CursorKey | null {
    if (!cursor) return null;
    const walk = search && sort !== "duration";
    if (walk !== cursor.startsWith("s"))
      throw new RangeError(
        `cursor "${cursor}" belongs to a list ${walk ? "without" : "with"} a search; start again from the first page`,
      );
    if (walk) {
      const doc = Number(cursor.slice(1));
      if (!Number.isSafeInteger(doc) || doc < 0)
        throw new RangeError(`invalid cursor "${cursor}" for a search`);
      return { id: "", key: doc };
    }
    const tilde = cursor.indexOf("~");
    if (tilde < 0 && sort !== "duration") {
      const row = createdAtOf?.get(cursor) as { createdAt: string } | undefined;
      if (!row)
        throw new RangeError(`cursor "${cursor}" names no stored run; start again from the first page`);
      return { id: cursor, key: Date.parse(row.createdAt) };
    }
    const k = cursor.slice(0, tilde);
    const id = cursor.slice(tilde + 1);
    const key = k === "n" && sort === "duration" ? null : Number(k);
    if (tilde < 1 || !id || (key !== null && !Number.isSafeInteger(key)))
      throw new RangeError(`invalid cursor "${cursor}" for the ${sort} sort`);
    return { id, key };
  }

  return {
    /**
     * Adds the search documents admission left waiting to the full-text index (SQLite; a no-op on
     * PostgreSQL). The host calls it on a timer so the work is batched; searches call it themselves.
     */
    indexSearch(): number {
      return searchIndex?.catchUp() ?? 0;
    },

    /** One page of runs matching the filters; pass `nextCursor` back to get the next page. */
    async list(q: RunListQuery = {}) {
      if (sql === "postgres") return listRunsPostgres(prisma, q, listSelect);
      const limit = Math.min(Math.max(q.limit ?? 50, 1), 500);
      const sort = q.sort ?? "newest";
      const filter = { ...toSqlFilter(q), statuses: asList(q.status) };
      const cursor = decodeCursor(sort, q.cursor, filter.match !== undefined);
      if (filter.match !== undefined) searchIndex?.catchUp();
      const built = buildListQuery(filter, sort, cursor, limit + 1, searchScan);
      const rows = prepared(built.sql).all(...built.args) as ListRow[];
      const page = rows
        .slice(0, limit)
        .map(({ flowName, createdAt, startedAt, endedAt, doc: _doc, ...r }) => ({
          ...r,
          createdAt: new Date(createdAt),
          startedAt: date(startedAt),
          endedAt: date(endedAt),
          flow: { name: flowName },
        }));
      const last = rows[limit - 1];
      if (rows.length > limit && last) return { runs: page, nextCursor: encodeCursor(sort, last) };
      // A short search page may be one whose walk stopped at SEARCH_SCAN matches: go on from there.
      if (filter.match !== undefined && sort !== "duration") {
        const edge = searchScanEdge(filter, sort, cursor, searchScan);
        const scan = prepared(edge.sql).get(...edge.args) as { read: number; edge: number | null };
        if (scan.read === searchScan && scan.edge !== null)
          return { runs: page, nextCursor: `s${scan.edge}` };
      }
      return { runs: page, nextCursor: null };
    },

    /**
     * Runs per status under the same filters as `list` (the status filter itself left out). Without a
     * search the counts come from RunCount and are exact; with one, counting stops past
     * SEARCH_COUNT_CAP matches and `capped` says the figures are a lower bound.
     */
    async counts(q: Omit<RunListQuery, "status" | "sort" | "limit" | "cursor"> = {}) {
      if (sql === "postgres") return countRunsPostgres(prisma, q);
      const filter = toSqlFilter(q);
      if (filter.match !== undefined) searchIndex?.catchUp();
      const byStatus: Record<string, number> = {};
      let total = 0;
      for (const part of buildCountQueries(filter))
        for (const g of prepared(part.sql).all(...part.args) as { status: string; n: number }[]) {
          if (g.n === 0) continue;
          byStatus[g.status] = (byStatus[g.status] ?? 0) + g.n;
          total += g.n;
        }
      const live = liveRunStatuses.reduce((n, s) => n + (byStatus[s] ?? 0), 0);
      return { total, byStatus, live, capped: filter.match !== undefined && total > SEARCH_COUNT_CAP };
    },

    async get(id: string) {
      // Step ids are time-ordered, so id order is checkpoint order (attempts of a retried step included).
      return prisma.run.findUnique({
        where: { id },
        include: { steps: { orderBy: { id: "asc" } }, flow: { select: { name: true } } },
      });
    },

    /**
     * A run for the trace view: the run row with its payload and one summary per Step row (every attempt),
     * without step inputs and outputs, plus the run it re-ran and the runs that re-ran it.
     */
    async trace(id: string) {
      const run = await prisma.run.findUnique({
        where: { id },
        select: {
          ...listSelect,
          triggerPayload: true,
          output: true,
          attempts: true,
          stepMode: true,
          stepNode: true,
          availableAt: true,
          steps: { orderBy: { id: "asc" }, select: stepSummarySelect },
        },
      });
      if (!run) return null;
      const reruns = await prisma.run.findMany({
        where: { rerunOf: id },
        orderBy: { id: "asc" },
        select: { id: true, status: true, stepMode: true },
        take: 50,
      });
      return { ...run, reruns };
    },

    /** One Step row in full (input and output JSON as stored, possibly with a `__truncated` marker). */
    async step(runId: string, stepRowId: string) {
      return prisma.step.findFirst({ where: { id: stepRowId, runId } });
    },
  };
}

export type RunRepo = ReturnType<typeof createRunRepo>;
export type RunListPage = Awaited<ReturnType<RunRepo["list"]>>;
export type RunTrace = NonNullable<Awaited<ReturnType<RunRepo["trace"]>>>;
