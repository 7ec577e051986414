import type { PrismaClient } from "../generated/prisma/client";

/** JSON settings by key. Callers parse values with their own zod schema. */
export function createSettingsRepo(prisma: PrismaClient) {
  return {
    async get(key: string): Promise<unknown> {
      const row = await prisma.setting.findUnique({ where: { key } });
      return row ? (JSON.parse(row.value) as unknown) : undefined;
    },
    async set(key: string, value: unknown) {
      const json = JSON.stringify(value);
      await prisma.setting.upsert({ where: { key }, create: { key, value: json }, update: { value: json } });
    },
    /** Writes only when absent: first-start defaults never overwrite what a person chose. */
    async setDefault(key: string, value: unknown): Promise<boolean> {
      const existing = await prisma.setting.findUnique({ where: { key } });
      if (existing) return false;
      await prisma.setting.create({ data: { key, value: JSON.stringify(value) } });
      return true;
    },
  };
}

export type SettingsRepo = ReturnType<typeof createSettingsRepo>;
