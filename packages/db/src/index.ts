export { sqlDate } from "./dates";
export { newId } from "./ids";
export { applyMigrations, defaultMigrationsDir, MigrationError, readMigrations } from "./migrate";
export type { MigrateResult, Migration } from "./migrate";
export { configureConnection, openDatabase, openRawDatabase } from "./open";
export type { DatabaseHandle } from "./open";
export { createFlowRepo, NotFoundError } from "./repos/flows";
export type { FlowRepo, FlowSummary, FlowVersionRecord } from "./repos/flows";
export { createRunRepo } from "./repos/runs";
export { createRunSearchIndexer, type RunSearchIndexer } from "./repos/run-search-indexer";
export type { RunListQuery, RunRepo } from "./repos/runs";
export { deleteEmptyRunCounts, runVolume } from "./repos/run-volume";
export type { RunVolume } from "./repos/run-volume";
export { createSettingsRepo } from "./repos/settings";
export type { SettingsRepo } from "./repos/settings";
export type { PrismaClient } from "./generated/prisma/client";
// PostgreSQL lives at "@switchyard/db/postgres" (loaded only on scale-out); its handle type is shared here.
export type { PostgresHandle } from "./postgres/open";
/** Either database: SQLite (embedded default) or PostgreSQL (SWITCHYARD_DATABASE_URL). */
export type StorageHandle = import("./open").DatabaseHandle | import("./postgres/open").PostgresHandle;
