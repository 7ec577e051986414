import type Database from "better-sqlite3";
import { DEFAULT_NAMESPACE } from "../types";

const SCHEMA_VERSION = 5;

/**
 * The namespace as one FTS token ("n" + hex of its UTF-8), so a lexical query can say
 * `{ns_token}: n666c6f775f31 AND (...)` and FTS5 filters, ranks and limits in one pass. Items of the
 * default namespace get none: bm25() normalises by the whole row's length, so a token in every row would
 * reorder near-ties against a store without it; the default namespace is searched through a join instead.
 */
export const NS_TOKEN_SQL = `CASE namespace WHEN '${DEFAULT_NAMESPACE}' THEN NULL ELSE 'n' || lower(hex(namespace)) END`;
export const nsToken = (namespace: string) => `n${Buffer.from(namespace, "utf8").toString("hex")}`;

const FTS_DDL = `
CREATE VIRTUAL TABLE IF NOT EXISTS items_fts USING fts5(
  key, content, tags, thread, ns_token,
  content = 'items', content_rowid = 'seq',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
-- External-content FTS kept in step by triggers; the UPDATE trigger only fires for indexed columns,
-- so re-embedding a row does not re-tokenise it.
CREATE TRIGGER IF NOT EXISTS items_fts_insert AFTER INSERT ON items BEGIN
  INSERT INTO items_fts (rowid, key, content, tags, thread, ns_token)
  VALUES (new.seq, new.key, new.content, new.tags, new.thread, new.ns_token);
END;
CREATE TRIGGER IF NOT EXISTS items_fts_delete AFTER DELETE ON items BEGIN
  INSERT INTO items_fts (items_fts, rowid, key, content, tags, thread, ns_token)
  VALUES ('delete', old.seq, old.key, old.content, old.tags, old.thread, old.ns_token);
END;
CREATE TRIGGER IF NOT EXISTS items_fts_update AFTER UPDATE OF key, content, tags, thread, namespace ON items BEGIN
  INSERT INTO items_fts (items_fts, rowid, key, content, tags, thread, ns_token)
  VALUES ('delete', old.seq, old.key, old.content, old.tags, old.thread, old.ns_token);
  INSERT INTO items_fts (rowid, key, content, tags, thread, ns_token)
  VALUES (new.seq, new.key, new.content, new.tags, new.thread, new.ns_token);
END;`;

/**
 * Items the second full-text index holds: those whose seq is within this many of the newest. bm25() counts every
 * row holding each phrase of a query, once per query, so a query made only of words in a quarter of 1 000 000
 * items cost ≈ 20 ms before it ranked a single row; over this index the same count reads a fiftieth of that.
 * Lexical search ranks the newest matches of such a query here (see read/lexical.ts).
 */
export const RECENT_ITEMS = 20_000;

// Rows leave in ranges of this many: a delete from a contentless-delete FTS5 table cost ≈ 130 µs one row at a
// time (ingest of 100 000 items 27 → 43 s of CPU) and ≈ 27 µs a row a thousand at a time (→ 34 s).
const RECENT_TRIM = 1000;

// Contentless, with tombstone deletes: a row leaves by rowid alone, without the text it was indexed with. The
// index holds the items whose seq is above the floor, RECENT_ITEMS below the last multiple of RECENT_TRIM
// inserted: the newest RECENT_ITEMS items and up to RECENT_TRIM - 1 more.
const RECENT_FLOOR = `(SELECT max(seq) FROM items) / ${RECENT_TRIM} * ${RECENT_TRIM} - ${RECENT_ITEMS}`;
const RECENT_FTS_DDL = `
CREATE VIRTUAL TABLE IF NOT EXISTS items_fts_recent USING fts5(
  key, content, tags, thread, ns_token,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS items_fts_recent_insert AFTER INSERT ON items BEGIN
  INSERT INTO items_fts_recent (rowid, key, content, tags, thread, ns_token)
  VALUES (new.seq, new.key, new.content, new.tags, new.thread, new.ns_token);
END;
CREATE TRIGGER IF NOT EXISTS items_fts_recent_trim AFTER INSERT ON items WHEN new.seq % ${RECENT_TRIM} = 0 BEGIN
  DELETE FROM items_fts_recent
  WHERE rowid > new.seq - ${RECENT_ITEMS + RECENT_TRIM} AND rowid <= new.seq - ${RECENT_ITEMS};
END;
CREATE TRIGGER IF NOT EXISTS items_fts_recent_delete AFTER DELETE ON items BEGIN
  DELETE FROM items_fts_recent WHERE rowid = old.seq;
END;
CREATE TRIGGER IF NOT EXISTS items_fts_recent_update AFTER UPDATE OF key, content, tags, thread, namespace ON items BEGIN
  DELETE FROM items_fts_recent WHERE rowid = old.seq;
  INSERT INTO items_fts_recent (rowid, key, content, tags, thread, ns_token)
  SELECT new.seq, new.key, new.content, new.tags, new.thread, new.ns_token WHERE new.seq > ${RECENT_FLOOR};
END;`;

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
  updated_at TEXT NOT NULL,
  ns_token TEXT GENERATED ALWAYS AS (${NS_TOKEN_SQL}) VIRTUAL
);
CREATE UNIQUE INDEX IF NOT EXISTS items_source ON items (namespace, source) WHERE source IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_namespace_kind ON items (namespace, kind, updated_at);
CREATE INDEX IF NOT EXISTS items_thread ON items (namespace, thread) WHERE thread IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_pending ON items (seq) WHERE embedder_id IS NULL;
${FTS_DDL}
${RECENT_FTS_DDL}
-- Every write that can change an item's vector is logged here in the same transaction. The ANN index
-- (src/ann) is derived: it replays this log, so a crash between the SQLite commit and the index write
-- loses nothing, and writes from another process reach this process's index too.
CREATE TABLE IF NOT EXISTS vector_changes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  seq INTEGER NOT NULL,
  old_namespace TEXT
);
CREATE TRIGGER IF NOT EXISTS items_vector_log_insert AFTER INSERT ON items BEGIN
  INSERT INTO vector_changes (seq, old_namespace) VALUES (new.seq, NULL);
END;
CREATE TRIGGER IF NOT EXISTS items_vector_log_update AFTER UPDATE OF namespace, content_hash, embedder_id ON items BEGIN
  INSERT INTO vector_changes (seq, old_namespace) VALUES (new.seq, old.namespace);
END;
CREATE TRIGGER IF NOT EXISTS items_vector_log_delete AFTER DELETE ON items BEGIN
  INSERT INTO vector_changes (seq, old_namespace) VALUES (old.seq, old.namespace);
END;
-- The number of items, kept by triggers: read on every query (IDF), where count(*) would walk an index
-- of the whole table. Filled from count(*) once when it is created (see migrate).
CREATE TABLE IF NOT EXISTS item_count (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS items_count_insert AFTER INSERT ON items BEGIN
  UPDATE item_count SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS items_count_delete AFTER DELETE ON items BEGIN
  UPDATE item_count SET n = n - 1 WHERE id = 1;
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
  // IMMEDIATE: the write lock is taken at BEGIN, where SQLite waits out another process's set-up in the busy
  // handler. A deferred transaction that has read first gets "database is locked" at once when it tries to write.
  db.transaction(() => {
    // Version 1 had no namespace column in the full-text index, versions 2 and 3 gave the default
    // namespace a token too: (re)create the column and re-index (once).
    const upgradeFts = version > 0 && version < 4;
    if (upgradeFts) {
      const hasColumn =
        db
          .prepare("SELECT count(*) FROM pragma_table_xinfo('items') WHERE name = 'ns_token'")
          .pluck()
          .get() !== 0;
      db.exec(`DROP TRIGGER IF EXISTS items_fts_insert; DROP TRIGGER IF EXISTS items_fts_delete;
        DROP TRIGGER IF EXISTS items_fts_update; DROP TABLE IF EXISTS items_fts;
        ${hasColumn ? "ALTER TABLE items DROP COLUMN ns_token;" : ""}
        ALTER TABLE items ADD COLUMN ns_token TEXT GENERATED ALWAYS AS (${NS_TOKEN_SQL}) VIRTUAL;`);
    }
    db.exec(DDL);
    db.exec("INSERT OR IGNORE INTO item_count (id, n) SELECT 1, count(*) FROM items");
    if (upgradeFts) db.exec("INSERT INTO items_fts (items_fts) VALUES ('rebuild')");
    // Version 4 had no index of the newest items: fill it once, as its triggers would have.
    if (version > 0 && version < 5)
      db.exec(`INSERT INTO items_fts_recent (rowid, key, content, tags, thread, ns_token)
        SELECT seq, key, content, tags, thread, ns_token FROM items
        WHERE seq > ${RECENT_FLOOR}`);
    if (version < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
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
