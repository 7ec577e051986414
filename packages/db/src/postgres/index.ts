// PostgreSQL support, a subpath of its own: the SQLite default never loads pg or its Prisma client.
export { applyPostgresMigrations, defaultPostgresMigrationsDir } from "./migrate";
export { inTransaction, openPostgres, redactUrl } from "./open";
export type { PostgresHandle } from "./open";
