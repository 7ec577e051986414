import type Database from "better-sqlite3";
import { createRunSearchIndexer } from "@switchyard/db";
import type { Logger } from "../logger";

/**
 * How often waiting search documents are added to the full-text index. Short enough that a batch stays
 * small (a few hundred runs at full webhook load, a few ms of work), long enough that FTS5 writes one
 * segment per batch instead of one per admission transaction.
 */
export const SEARCH_INDEX_EVERY_MS = 200;

/** The SQLite host's search indexer on a timer (a search catches up by itself; this keeps the backlog small). */
export function createSearchIndexing(sql: Database.Database, log: Logger, everyMs = SEARCH_INDEX_EVERY_MS) {
  const indexer = createRunSearchIndexer(sql);
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    try {
      indexer.catchUp();
    } catch (err) {
      // The documents stay waiting; the next tick or search tries again.
      log.error({ err }, "adding runs to the search index failed");
    }
  };
  return {
    start() {
      timer ??= setInterval(tick, everyMs);
      timer.unref();
    },
    /** Stops the timer and indexes what waits, so the next start begins with nothing to catch up. */
    stop() {
      clearInterval(timer);
      timer = undefined;
      tick();
    },
  };
}
