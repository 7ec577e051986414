import type { PrismaClient } from "../generated/prisma/client";
import { coalesce } from "../coalesce";
import { newId } from "../ids";

export interface FlowSummary {
  id: string;
  name: string;
  description: string;
  active: boolean;
  currentVersion: number;
  activeVersion: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface FlowVersionRecord {
  flowId: string;
  version: number;
  definition: unknown;
  createdAt: Date;
  createdBy: string | null;
}

/** `errorCode` is the host edge's code for it (the db sits below the runtime and cannot import its list). */
export class NotFoundError extends Error {
  override name = "NotFoundError";
  readonly errorCode = "not_found";
}

/** Flows and their immutable versions. Definitions are validated by the caller (engine) before they get here. */
export function createFlowRepo(prisma: PrismaClient) {
  return {
    async create(input: { name: string; description?: string; definition: unknown; createdBy?: string }) {
      const id = newId();
      await prisma.$transaction([
        prisma.flow.create({
          data: { id, name: input.name, description: input.description ?? "", currentVersion: 1 },
        }),
        prisma.flowVersion.create({
          data: {
            id: newId(),
            flowId: id,
            version: 1,
            definition: JSON.stringify(input.definition),
            createdBy: input.createdBy ?? null,
          },
        }),
      ]);
      return { id, version: 1 };
    },

    /** Appends a new immutable version; earlier versions (and runs pinned to them) are untouched. */
    async saveVersion(flowId: string, definition: unknown, createdBy?: string) {
      return prisma.$transaction(async (tx) => {
        const flow = await tx.flow.findUnique({ where: { id: flowId } });
        if (!flow) throw new NotFoundError(`flow ${flowId} not found`);
        const version = flow.currentVersion + 1;
        await tx.flowVersion.create({
          data: {
            id: newId(),
            flowId,
            version,
            definition: JSON.stringify(definition),
            createdBy: createdBy ?? null,
          },
        });
        await tx.flow.update({ where: { id: flowId }, data: { currentVersion: version } });
        return { id: flowId, version };
      });
    },

    get: coalesce(
      (flowId: string) => flowId,
      (flowId: string): Promise<FlowSummary | null> => prisma.flow.findUnique({ where: { id: flowId } }),
    ),

    async list(opts: { search?: string } = {}): Promise<FlowSummary[]> {
      return prisma.flow.findMany({
        where: opts.search ? { name: { contains: opts.search } } : undefined,
        orderBy: { updatedAt: "desc" },
      });
    },

    getVersion: coalesce(
      (flowId: string, version?: number) => `${flowId}@${version ?? "current"}`,
      async (flowId: string, version?: number): Promise<FlowVersionRecord | null> => {
        const flow = await prisma.flow.findUnique({ where: { id: flowId } });
        if (!flow) return null;
        const row = await prisma.flowVersion.findUnique({
          where: { flowId_version: { flowId, version: version ?? flow.currentVersion } },
        });
        if (!row) return null;
        return { ...row, definition: JSON.parse(row.definition) as unknown };
      },
    ),

    async listVersions(flowId: string) {
      return prisma.flowVersion.findMany({
        where: { flowId },
        select: { version: true, createdAt: true, createdBy: true },
        orderBy: { version: "desc" },
      });
    },

    async rename(flowId: string, name: string) {
      return prisma.flow.update({ where: { id: flowId }, data: { name } });
    },

    /**
     * Activation pins the version the triggers serve (the current one unless `version` names another, as when a
     * refused save puts the previous one back); deactivation clears it.
     */
    async setActive(flowId: string, active: boolean, version?: number) {
      const flow = await prisma.flow.findUnique({ where: { id: flowId } });
      if (!flow) throw new NotFoundError(`flow ${flowId} not found`);
      return prisma.flow.update({
        where: { id: flowId },
        data: { active, activeVersion: active ? (version ?? flow.currentVersion) : null },
      });
    },

    async delete(flowId: string) {
      await prisma.flow.delete({ where: { id: flowId } });
    },

    async count() {
      return prisma.flow.count();
    },
  };
}

export type FlowRepo = ReturnType<typeof createFlowRepo>;
