import { mkdirSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { INLINE_CHECKPOINT_PAGES, startCheckpointer } from "./checkpointer";
import { PrismaClient } from "./generated/prisma/client";

export interface DatabaseHandle {
  kind: "sqlite";
  /** Prisma client for repositories. */
  prisma: PrismaClient;
  /** Raw connection for hot paths (run admission, queue claims, step checkpoints) with prepared statements. */
  sql: Database.Database;
  file: string;
  close(): Promise<void>;
}

/** WAL + NORMAL sync: durable across process crashes, one fsync per checkpoint rather than per commit. */
export function configureConnection(db: Database.Database): void {
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  // Statement journals and sort trees in memory: a statement that fires a trigger opens a statement
  // journal, and as a temp file that cost ~80 µs per INSERT or UPDATE of a run (bench/run-writes.ts).
  db.pragma("temp_store = MEMORY");
}

export function openRawDatabase(file: string): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  configureConnection(db);
  return db;
}

/**
 * `backgroundCheckpoints`: the long-running host's option (one per data dir, under its lock). Checkpoints move
 * to a thread of their own (checkpointer.ts); short-lived commands keep SQLite's inline ones.
 */
export function openDatabase(
  file: string,
  opts: { backgroundCheckpoints?: boolean; onCheckpointError?: (message: string) => void } = {},
): DatabaseHandle {
  const sql = openRawDatabase(file);
  const checkpointer = opts.backgroundCheckpoints
    ? startCheckpointer(file, { onError: opts.onCheckpointError })
    : undefined;
  if (checkpointer) sql.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
  const prisma = new PrismaClient({
    adapter: new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 5000 }),
  });
  return {
    kind: "sqlite",
    prisma,
    sql,
    file,
    async close() {
      await checkpointer?.stop();
      await prisma.$disconnect();
      sql.close();
    },
  };
}
