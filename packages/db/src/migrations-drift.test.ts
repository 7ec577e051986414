// Catches schema.prisma edits that were not turned into a migration: the start-up runner only
// applies prisma/migrations, so such an edit would ship a client that expects columns no database has.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  defaultMigrationsDir,
  defaultSchemaPath,
  lockfileContent,
  planMigration,
} from "../scripts/schema-engine";

const fix = "schema.prisma changed without a migration: run `npx tsx scripts/migrate-dev.ts --name <name>`";
const scratch = mkdtempSync(path.join(tmpdir(), "switchyard-drift-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("prisma/migrations", () => {
  it("reproduce schema.prisma exactly, so the schema engine has no migration to add", async () => {
    const plan = await planMigration({ name: "drift_check" });

    expect(plan.script, fix).toBeNull();
    const folders = readdirSync(defaultMigrationsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(folders.length).toBeGreaterThan(0);
    expect(plan.appliedMigrations).toEqual(folders);
  }, 20_000);

  it("are reported as drifting once schema.prisma gains a field they do not create", async () => {
    const edited = path.join(scratch, "schema.prisma");
    const original = readFileSync(defaultSchemaPath, "utf8");
    const withField = original.replace(/model Setting \{\n/, "model Setting {\n  driftProbe String?\n");
    expect(withField).not.toBe(original);
    writeFileSync(edited, withField);

    const plan = await planMigration({ name: "drift_probe", schemaPath: edited });

    expect(plan.script).toContain(`ALTER TABLE "Setting" ADD COLUMN "driftProbe" TEXT;`);
    expect(plan.directoryName).toMatch(/^\d{14}_drift_probe$/);
  }, 20_000);

  it("have the lock file Prisma writes for SQLite", () => {
    const lock = readFileSync(path.join(defaultMigrationsDir, "migration_lock.toml"), "utf8");
    expect(lock).toBe(lockfileContent("sqlite"));
  });

  it("use the <14 digits>_<name> folder names Prisma generates", () => {
    const folders = readdirSync(defaultMigrationsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    for (const name of folders) expect(name).toMatch(/^\d{14}_[a-z0-9_]+$/);
  });
});
