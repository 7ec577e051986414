// Prisma CLI configuration. The runtime never reads this: it applies prisma/migrations itself.
import path from "node:path";
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: path.join("..", "..", "prisma", "schema.prisma"),
  migrations: { path: path.join("..", "..", "prisma", "migrations") },
  datasource: { url: process.env.DATABASE_URL ?? "file:../../data/switchyard.db" },
});
