// Prisma's schema engine, run as WebAssembly through the better-sqlite3 driver adapter.
// The Prisma 7 CLI only knows the native engine binary, which is downloaded from outside npm and
// therefore unavailable offline; the wasm build of the same engine needs nothing but npm packages.
// Shared by scripts/migrate-dev.ts (authoring migrations) and src/migrations-drift.test.ts (CI check).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlQuery,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine, SchemaFilter } from "@prisma/schema-engine-wasm";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const defaultSchemaPath = path.join(repoRoot, "prisma", "schema.prisma");
export const defaultMigrationsDir = path.join(repoRoot, "prisma", "migrations");

const noFilter: SchemaFilter = { externalTables: [], externalEnums: [] };
const lockfileName = "migration_lock.toml";

type EngineModule = typeof import("@prisma/schema-engine-wasm");
let enginePromise: Promise<EngineModule> | undefined;

// Our tsconfig (lib ES2023, no DOM) and @types/node 20 do not declare WebAssembly; this is the
// slice of Node's global we use.
interface WasmGlobal {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: Record<string, object>): Promise<{ exports: Record<string, unknown> }>;
}
const wasmGlobal = (globalThis as unknown as { WebAssembly: WasmGlobal }).WebAssembly;

/**
 * The package entry does `import * as wasm from "./schema_engine_bg.wasm"`, which Node 20 cannot
 * load. So we instantiate the .wasm ourselves against the JS glue and run the same two start-up
 * calls the entry would. The glue keeps the instance in module state, so this happens once per process.
 */
export function loadSchemaEngine(): Promise<EngineModule> {
  enginePromise ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = readFileSync(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
    const module = await wasmGlobal.compile(bytes);
    const instance = await wasmGlobal.instantiate(module, { "./schema_engine_bg.js": glue });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return enginePromise;
}

const tableListing = /FROM sqlite_master WHERE type='table'/i;
const shadowSuffixes = ["", "_config", "_data", "_docsize", "_idx", "_content"];

/**
 * Full-text (FTS5) tables are written by hand in migrations: Prisma's schema cannot declare them, and
 * the engine would plan to drop them and their shadow tables. Its table listings leave them out, so
 * planning sees only what schema.prisma models.
 */
async function hideVirtualTables(adapter: SqlDriverAdapter, query: SqlQuery) {
  const result = await adapter.queryRaw(query);
  if (!tableListing.test(query.sql)) return result;
  const virtual = await adapter.queryRaw({
    sql: `SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`,
    args: [],
    argTypes: [],
  });
  const hidden = new Set(virtual.rows.flatMap(([name]) => shadowSuffixes.map((s) => `${name}${s}`)));
  const nameAt = result.columnNames.findIndex((c) => c === "name" || c === "table_name");
  return { ...result, rows: result.rows.filter((row) => !hidden.has(String(row[nameAt]))) };
}

/**
 * The engine sends whole migration scripts (many statements) through `executeRaw` without
 * arguments, notably on the shadow database. better-sqlite3's `prepare` accepts one statement only,
 * so argument-less calls go to `executeScript` (`db.exec`), as the native engine's batch execute would.
 */
function acceptScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => hideVirtualTables(adapter, query),
    executeRaw: async (query) => {
      if (query.args.length > 0) return adapter.executeRaw(query);
      await adapter.executeScript(query.sql);
      return 0;
    },
    executeScript: (script) => adapter.executeScript(script),
    startTransaction: (isolationLevel) => adapter.startTransaction(isolationLevel),
    dispose: () => adapter.dispose(),
  };
}

/**
 * Adapter factory over one SQLite file (the shadow database is the adapter's default: a private
 * in-memory SQLite per connection). Tracks its connections so they can be closed after the run.
 */
function scriptFriendlyFactory(url: string): {
  factory: SqlMigrationAwareDriverAdapterFactory;
  closeAll: () => Promise<void>;
} {
  const inner = new PrismaBetterSqlite3({ url });
  const open: SqlDriverAdapter[] = [];
  const track = (adapter: SqlDriverAdapter) => {
    open.push(adapter);
    return acceptScripts(adapter);
  };
  return {
    factory: {
      provider: inner.provider,
      adapterName: inner.adapterName,
      connect: async () => track(await inner.connect()),
      connectToShadowDb: async () => track(await inner.connectToShadowDb()),
    },
    closeAll: async () => {
      // The engine may already have disposed some; closing a closed better-sqlite3 handle is a no-op.
      await Promise.allSettled(open.splice(0).map((a) => a.dispose()));
    },
  };
}

/** Reads the migrations folder the way the Prisma CLI does (folders sorted by name, lockfile optional). */
export function readMigrationsList(migrationsDir: string): MigrationList {
  let lockContent: string | null = null;
  try {
    lockContent = readFileSync(path.join(migrationsDir, lockfileName), "utf8");
  } catch {
    lockContent = null;
  }
  let dirs: string[] = [];
  try {
    dirs = readdirSync(migrationsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort((a, b) => a.localeCompare(b));
  } catch {
    dirs = [];
  }
  return {
    baseDir: migrationsDir,
    lockfile: { path: lockfileName, content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      let content: { tag: "ok"; value: string } | { tag: "error"; value: string };
      try {
        content = { tag: "ok", value: readFileSync(file, "utf8") };
      } catch (e) {
        content = { tag: "error", value: (e as Error).message };
      }
      return { path: name, migrationFile: { path: "migration.sql", content } };
    }),
  };
}

export interface PlannedMigration {
  /** `<YYYYMMDDHHMMSS>_<name>` as generated by the engine. */
  directoryName: string;
  /** `migration.<extension>`, i.e. migration.sql for SQLite. */
  fileName: string;
  /** The script, or null when the migrations already produce schema.prisma. */
  script: string | null;
  connectorType: string;
  /** Migrations the engine applied to the scratch database before diffing. */
  appliedMigrations: string[];
}

export interface PlanOptions {
  name: string;
  schemaPath?: string;
  migrationsDir?: string;
  /** Engine debug log lines; silent by default. */
  log?: (line: string) => void;
}

/**
 * The `prisma migrate dev --create-only` flow against a throw-away SQLite file: apply the existing
 * migrations, then ask the engine for the migration that brings them to schema.prisma.
 * Writes nothing to the migrations folder.
 */
export async function planMigration(opts: PlanOptions): Promise<PlannedMigration> {
  const schemaPath = opts.schemaPath ?? defaultSchemaPath;
  const migrationsDir = opts.migrationsDir ?? defaultMigrationsDir;
  const schemaFile = { path: schemaPath, content: readFileSync(schemaPath, "utf8") };
  const { SchemaEngine: Engine } = await loadSchemaEngine();
  const scratch = mkdtempSync(path.join(tmpdir(), "switchyard-migrate-"));
  const sqlite = scriptFriendlyFactory(`file:${path.join(scratch, "dev.db")}`);
  let engine: SchemaEngine | undefined;
  try {
    engine = await Engine.new(
      { datamodels: [[schemaFile.path, schemaFile.content]] },
      (line: string) => opts.log?.(line),
      bindMigrationAwareSqlAdapterFactory(sqlite.factory),
    );
    const migrationsList = readMigrationsList(migrationsDir);
    // Order matters: devDiagnostic on a database without _prisma_migrations fails (P1014), and
    // createMigration relies on the state devDiagnostic sets up.
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: noFilter });
    const diagnostic = await engine.devDiagnostic({ migrationsList, filters: noFilter });
    if (diagnostic.action.tag === "reset") {
      throw new Error(`schema engine asks for a reset: ${diagnostic.action.reason}`);
    }
    const created = await engine.createMigration({
      draft: false,
      migrationName: opts.name,
      migrationsList,
      schema: { files: [schemaFile] },
      filters: noFilter,
    });
    return {
      directoryName: created.generatedMigrationName,
      fileName: `migration.${created.extension}`,
      script: created.migrationScript,
      connectorType: created.connectorType,
      appliedMigrations: appliedMigrationNames,
    };
  } finally {
    engine?.free();
    await sqlite.closeAll();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The lock file exactly as the Prisma CLI writes it. */
export function lockfileContent(connectorType: string): string {
  return `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${connectorType}"\n`;
}
