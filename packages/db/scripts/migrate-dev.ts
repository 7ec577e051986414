// Offline stand-in for `prisma migrate dev --create-only --name <name>`.
// Usage (from packages/db): npx tsx scripts/migrate-dev.ts --name <name>
// Writes prisma/migrations/<YYYYMMDDHHMMSS>_<name>/migration.sql and migration_lock.toml exactly as
// the Prisma CLI would; applying it is the job of the start-up migration runner (src/migrate.ts).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { defaultMigrationsDir, defaultSchemaPath, lockfileContent, planMigration } from "./schema-engine";

/**
 * Same normalisation the Prisma CLI applies to `--name` (slugify with "_"): "addUserEmail" and
 * "Add user e-mail" both become "add_user_email", so folder names stay shell- and URL-safe.
 */
function migrationSlug(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z\d]+)/g, "$1 $2")
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z\d]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .substring(0, 200);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      name: { type: "string", short: "n" },
      schema: { type: "string" },
      migrations: { type: "string" },
      verbose: { type: "boolean", default: false },
    },
    strict: true,
  });
  const name = migrationSlug(values.name ?? "");
  if (!name) {
    console.error(
      "usage: npx tsx scripts/migrate-dev.ts --name <name> [--schema <file>] [--migrations <dir>]",
    );
    return 2;
  }
  const schemaPath = path.resolve(values.schema ?? defaultSchemaPath);
  const migrationsDir = path.resolve(values.migrations ?? defaultMigrationsDir);

  const plan = await planMigration({
    name,
    schemaPath,
    migrationsDir,
    log: values.verbose ? (line) => console.error(line) : undefined,
  });
  if (plan.script === null) {
    console.log(`no changes: the ${plan.appliedMigrations.length} migration(s) already match ${schemaPath}`);
    return 0;
  }

  const dir = path.join(migrationsDir, plan.directoryName);
  if (existsSync(dir)) throw new Error(`migration directory already exists: ${dir}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, plan.fileName);
  writeFileSync(file, plan.script, "utf8");
  writeFileSync(path.join(migrationsDir, "migration_lock.toml"), lockfileContent(plan.connectorType), "utf8");
  console.log(`created ${path.relative(process.cwd(), file)}`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const e = error as Error & { code?: string };
    console.error(`migrate-dev failed${e.code ? ` (${e.code})` : ""}: ${e.message ?? String(error)}`);
    process.exitCode = 1;
  },
);
