import type { PrismaClient } from "../generated/prisma/client";

export interface RunListQuery {
  flowId?: string;
  status?: string;
  channel?: string;
  limit?: number;
  /** Id of the last run of the previous page; ids are time-ordered (UUIDv7). */
  cursor?: string;
}

/** Read side of runs for lists and detail views; writing belongs to the run queue. */
export function createRunRepo(prisma: PrismaClient) {
  return {
    async list(q: RunListQuery = {}) {
      const limit = Math.min(Math.max(q.limit ?? 50, 1), 500);
      const rows = await prisma.run.findMany({
        where: {
          flowId: q.flowId,
          status: q.status,
          channel: q.channel,
          ...(q.cursor ? { id: { lt: q.cursor } } : {}),
        },
        orderBy: { id: "desc" },
        take: limit + 1,
        select: {
          id: true,
          flowId: true,
          flowVersion: true,
          status: true,
          channel: true,
          createdAt: true,
          startedAt: true,
          endedAt: true,
          durationMs: true,
          errorMessage: true,
          flow: { select: { name: true } },
        },
      });
      return { runs: rows.slice(0, limit), nextCursor: rows.length > limit ? rows[limit - 1]!.id : null };
    },
    async get(id: string) {
      // Step ids are time-ordered, so id order is checkpoint order (attempts of a retried step included).
      return prisma.run.findUnique({ where: { id }, include: { steps: { orderBy: { id: "asc" } }, flow: { select: { name: true } } } });
    },
  };
}

export type RunRepo = ReturnType<typeof createRunRepo>;
