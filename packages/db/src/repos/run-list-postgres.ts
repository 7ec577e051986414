import { liveRunStatuses } from "@switchyard/contracts/runs";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { RunSort } from "./run-query";
import type { RunListQuery } from "./runs";

/**
 * The runs list and its counts on PostgreSQL, through Prisma: keyset pages by id (UUIDv7, time-ordered),
 * ILIKE search and a grouped count. The SQLite side (run-query.ts) has per-filter indexes, FTS5 search
 * and trigger-kept counters that this does not have yet (docs/scale-out.md says so).
 */

const asList = (v: string | string[] | undefined) =>
  v === undefined ? undefined : Array.isArray(v) ? v : [v];
const asDate = (v: Date | string | undefined) => (v === undefined ? undefined : new Date(v));

/** Every filter except status and paging: status counts are taken over this. */
function baseWhere(q: RunListQuery): Prisma.RunWhereInput {
  const channels = asList(q.channel);
  const from = asDate(q.from);
  const to = asDate(q.to);
  const search = q.search?.trim();
  // PostgreSQL's LIKE is case-sensitive; Prisma's `insensitive` mode (ILIKE) is not in the SQLite
  // client's types, which this client shares, hence the cast.
  const contains = { contains: search, mode: "insensitive" } as unknown as Prisma.StringFilter;
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

/** Keyset condition for the page after `cursor` ("<ms|n>~<id>" for the duration sort, else a run id). */
function afterCursor(sort: RunSort, cursor: string | undefined): Prisma.RunWhereInput {
  if (!cursor) return {};
  if (sort === "newest") return { id: { lt: cursor } };
  if (sort === "oldest") return { id: { gt: cursor } };
  const [d, id] = cursor.split("~");
  if (!d || !id) throw new RangeError(`invalid cursor "${cursor}" for the duration sort`);
  if (d === "n") return { durationMs: null, id: { lt: id } };
  const ms = Number(d);
  return { OR: [{ durationMs: { lt: ms } }, { durationMs: ms, id: { lt: id } }, { durationMs: null }] };
}

const orderOf = (sort: RunSort): Prisma.RunOrderByWithRelationInput[] =>
  sort === "oldest"
    ? [{ id: "asc" }]
    : sort === "duration"
      ? [{ durationMs: { sort: "desc", nulls: "last" } }, { id: "desc" }]
      : [{ id: "desc" }];

export async function listRunsPostgres<S extends Prisma.RunSelect>(
  prisma: PrismaClient,
  q: RunListQuery,
  select: S,
) {
  const limit = Math.min(Math.max(q.limit ?? 50, 1), 500);
  const sort = q.sort ?? "newest";
  const statuses = asList(q.status);
  const rows = (await prisma.run.findMany({
    where: {
      AND: [baseWhere(q), statuses?.length ? { status: { in: statuses } } : {}, afterCursor(sort, q.cursor)],
    },
    orderBy: orderOf(sort),
    take: limit + 1,
    select,
  })) as unknown as Prisma.RunGetPayload<{ select: S }>[];
  const page = rows.slice(0, limit);
  const last = page[page.length - 1] as { id: string; durationMs: number | null } | undefined;
  const nextCursor =
    rows.length > limit && last
      ? sort === "duration"
        ? `${last.durationMs ?? "n"}~${last.id}`
        : last.id
      : null;
  return { runs: page, nextCursor };
}

export async function countRunsPostgres(prisma: PrismaClient, q: RunListQuery) {
  const groups = await prisma.run.groupBy({ by: ["status"], where: baseWhere(q), _count: { _all: true } });
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const g of groups) {
    byStatus[g.status] = g._count._all;
    total += g._count._all;
  }
  const live = liveRunStatuses.reduce((n, s) => n + (byStatus[s] ?? 0), 0);
  return { total, byStatus, live, capped: false };
}
