// prisma/schema.prisma (SQLite) is the one schema source. Prisma fixes one provider per schema file, so
// the PostgreSQL schema is derived from it by this rewrite and committed; a drift test re-runs the
// rewrite and fails when the two differ. Run: `npx tsx scripts/postgres-schema.ts` (from packages/db).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const sqliteSchemaPath = path.join(repoRoot, "prisma", "schema.prisma");
export const postgresSchemaPath = path.join(repoRoot, "prisma", "postgres", "schema.prisma");
export const postgresMigrationsDir = path.join(repoRoot, "prisma", "postgres", "migrations");

const header = `// GENERATED from prisma/schema.prisma by packages/db/scripts/postgres-schema.ts: do not edit.
// The same models on PostgreSQL (used when SWITCHYARD_DATABASE_URL is set).
`;

/** Rewrites the SQLite schema for PostgreSQL; throws naming the line it expected when the source changed shape. */
export function toPostgresSchema(source: string): string {
  const swaps: [string, string][] = [
    [`provider = "sqlite"`, `provider = "postgresql"`],
    [
      `output        = "../packages/db/src/generated/prisma"`,
      `output        = "../../packages/db/src/generated/prisma-pg"`,
    ],
  ];
  let out = source;
  for (const [from, to] of swaps) {
    if (!out.includes(from))
      throw new Error(`prisma/schema.prisma: expected the line \`${from}\` to rewrite`);
    out = out.replace(from, to);
  }
  return header + out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(postgresSchemaPath, toPostgresSchema(readFileSync(sqliteSchemaPath, "utf8")));
  console.log(`wrote ${path.relative(process.cwd(), postgresSchemaPath)}`);
}
