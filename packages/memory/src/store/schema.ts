import type Database from "better-sqlite3";

const SCHEMA_VERSION = 1;

// `seq` is the integer row id shared by the FTS and vector tables; `id` is the public identifier.
const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  namespace TEXT NOT NULL DEFAULT 'global',
  kind TEXT NOT NULL CHECK (kind IN ('memory', 'transcript', 'person', 'profile')),
  key TEXT NOT NULL,
  content TEXT NOT NULL,
  thread TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  source TEXT,
  content_hash TEXT NOT NULL,
  embedder_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS items_source ON items (namespace, source) WHERE source IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_namespace_kind ON items (namespace, kind, updated_at);
CREATE INDEX IF NOT EXISTS items_thread ON items (namespace, thread) WHERE thread IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_pending ON items (seq) WHERE embedder_id IS NULL;
CREATE VIRTUAL TABLE IF NOT EXISTS items_fts USING fts5(
  key, content, tags, thread,
  content = 'items', content_rowid = 'seq',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
-- External-content FTS kept in step by triggers; the UPDATE trigger only fires for indexed columns,
-- so re-embedding a row does not re-tokenise it.
CREATE TRIGGER IF NOT EXISTS items_fts_insert AFTER INSERT ON items BEGIN
  INSERT INTO items_fts (rowid, key, content, tags, thread) VALUES (new.seq, new.key, new.content, new.tags, new.thread);
END;
CREATE TRIGGER IF NOT EXISTS items_fts_delete AFTER DELETE ON items BEGIN
  INSERT INTO items_fts (items_fts, rowid, key, content, tags, thread)
  VALUES ('delete', old.seq, old.key, old.content, old.tags, old.thread);
END;
CREATE TRIGGER IF NOT EXISTS items_fts_update AFTER UPDATE OF key, content, tags, thread ON items BEGIN
  INSERT INTO items_fts (items_fts, rowid, key, content, tags, thread)
  VALUES ('delete', old.seq, old.key, old.content, old.tags, old.thread);
  INSERT INTO items_fts (rowid, key, content, tags, thread) VALUES (new.seq, new.key, new.content, new.tags, new.thread);
END;
CREATE TABLE IF NOT EXISTS documents (
  name TEXT PRIMARY KEY,
  content TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;

export function migrate(db: Database.Database): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `memory database schema ${version} is newer than this build understands (${SCHEMA_VERSION})`,
    );
  }
  db.exec(DDL);
  if (version < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

export function getMeta(db: Database.Database, key: string): string | null {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function setMeta(db: Database.Database, key: string, value: string): void {
  db.prepare(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  ).run(key, value);
}
