import { liveRunStatuses } from "@switchyard/contracts/runs";
import type { Prisma, PrismaClient } from "../generated/prisma/client";

export type RunSort = "newest" | "oldest" | "duration";

interface CursorKey {
  id: string;
  durationMs: number | null;
}

/** Opaque page token: the id, plus the duration when sorting by it ("<ms|n>~<id>"). */
function encodeCursor(sort: RunSort, last: CursorKey): string {
  return sort === "duration" ? `${last.durationMs ?? "n"}~${last.id}` : last.id;
}

function decodeCursor(sort: RunSort, cursor: string | undefined): CursorKey | null {
  if (!cursor) return null;
  if (sort !== "duration") return { id: cursor, durationMs: null };
  const [d, id] = cursor.split("~");
  if (!d || !id) throw new RangeError(`invalid cursor "${cursor}" for the duration sort`);
  return { id, durationMs: d === "n" ? null : Number(d) };
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
  /** Case-insensitive text in the run's error, a step's error or the trigger payload. */
  search?: string;
  sort?: RunSort;
  limit?: number;
  /** `nextCursor` of the previous page (for `newest`, also a plain run id: ids are time-ordered UUIDv7). */
  cursor?: string;
}

/** Statuses a run can still leave; a list showing any of them is worth refreshing. */

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

const asList = (v: string | string[] | undefined) =>
  v === undefined ? undefined : Array.isArray(v) ? v : [v];
const asDate = (v: Date | string | undefined) => (v === undefined ? undefined : new Date(v));

/** Every filter except status and paging: status counts are taken over this. */
function baseWhere(q: RunListQuery, provider: RunRepoOptions["provider"]): Prisma.RunWhereInput {
  const channels = asList(q.channel);
  const from = asDate(q.from);
  const to = asDate(q.to);
  const search = q.search?.trim();
  // SQLite's LIKE ignores ASCII case by itself; PostgreSQL needs Prisma's `insensitive` mode (ILIKE),
  // which the SQLite client's types do not know, hence the cast.
  const contains = (provider === "postgres"
    ? { contains: search, mode: "insensitive" }
    : { contains: search }) as unknown as Prisma.StringFilter;
  return {
    ...(q.flowId ? { flowId: q.flowId } : {}),
    ...(channels?.length ? { channel: { in: channels } } : {}),
    ...(from || to ? { createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) } } : {}),
    ...(search
      ? {
          OR: [
            { errorMessage: contains },
            { triggerPayload: contains },
            { steps: { some: { errorMessage: contains } } },
          ],
        }
      : {}),
  };
}

function statusWhere(q: RunListQuery): Prisma.RunWhereInput {
  const statuses = asList(q.status);
  return statuses?.length ? { status: { in: statuses } } : {};
}

/** Keyset condition for the page after `cursor` in the given sort order (stable under concurrent inserts). */
function afterCursor(sort: RunSort, cursor: string | undefined): Prisma.RunWhereInput {
  const c = decodeCursor(sort, cursor);
  if (!c) return {};
  if (sort === "newest") return { id: { lt: c.id } };
  if (sort === "oldest") return { id: { gt: c.id } };
  // duration: longest first, unfinished (null) runs last, ties by id descending.
  if (c.durationMs === null) return { durationMs: null, id: { lt: c.id } };
  return {
    OR: [
      { durationMs: { lt: c.durationMs } },
      { durationMs: c.durationMs, id: { lt: c.id } },
      { durationMs: null },
    ],
  };
}

const orderOf = (sort: RunSort): Prisma.RunOrderByWithRelationInput[] =>
  sort === "oldest"
    ? [{ id: "asc" }]
    : sort === "duration"
      ? [{ durationMs: { sort: "desc", nulls: "last" } }, { id: "desc" }]
      : [{ id: "desc" }];

/** Read side of runs for lists and detail views; writing belongs to the run queue. */
export interface RunRepoOptions {
  /** Which database the client talks to (default sqlite): text search differs between them. */
  provider?: "sqlite" | "postgres";
}

export function createRunRepo(prisma: PrismaClient, opts: RunRepoOptions = {}) {
  const provider = opts.provider ?? "sqlite";
  return {
    /** One page of runs matching the filters; pass `nextCursor` back to get the next page. */
    async list(q: RunListQuery = {}) {
      const limit = Math.min(Math.max(q.limit ?? 50, 1), 500);
      const sort = q.sort ?? "newest";
      const rows = await prisma.run.findMany({
        where: { AND: [baseWhere(q, provider), statusWhere(q), afterCursor(sort, q.cursor)] },
        orderBy: orderOf(sort),
        take: limit + 1,
        select: listSelect,
      });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return { runs: page, nextCursor: rows.length > limit && last ? encodeCursor(sort, last) : null };
    },

    /** Runs per status under the same filters as `list` (the status filter itself left out). */
    async counts(q: Omit<RunListQuery, "status" | "sort" | "limit" | "cursor"> = {}) {
      const groups = await prisma.run.groupBy({
        by: ["status"],
        where: baseWhere(q, provider),
        _count: { _all: true },
      });
      const byStatus: Record<string, number> = {};
      let total = 0;
      for (const g of groups) {
        byStatus[g.status] = g._count._all;
        total += g._count._all;
      }
      const live = liveRunStatuses.reduce((n, s) => n + (byStatus[s] ?? 0), 0);
      return { total, byStatus, live };
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
          availableAt: true,
          steps: { orderBy: { id: "asc" }, select: stepSummarySelect },
        },
      });
      if (!run) return null;
      const reruns = await prisma.run.findMany({
        where: { rerunOf: id },
        orderBy: { id: "asc" },
        select: { id: true, status: true },
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
