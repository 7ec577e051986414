import type { PrismaClient } from "../generated/prisma/client";
import { tempDatabase } from "./temp-db";
import { tempPostgres } from "./temp-postgres";

export interface TestDatabase {
  kind: "sqlite" | "postgres";
  prisma: PrismaClient;
  cleanup(): Promise<void>;
}

/** The two databases every repository suite runs on: a temp SQLite file and a fresh PostgreSQL database. */
export const databases: [TestDatabase["kind"], () => Promise<TestDatabase>][] = [
  ["sqlite", async () => tempDatabase()],
  ["postgres", () => tempPostgres()],
];
