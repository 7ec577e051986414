import type Database from "better-sqlite3";
import { createRunSearchIndexer } from "@switchyard/db";
import type { Logger } from "../logger";

/**
 * How often waiting list and search documents are written. Long enough that FTS5 writes one segment per
 * slice instead of one per admission transaction.
 */
export const SEARCH_INDEX_EVERY_MS = 200;

/**
 * Documents per slice; slices follow each other with setImmediate, so requests are answered between them.
 * At full webhook load a whole tick's backlog in one go held the event loop ≈ 10 ms every 200 ms, which
 * every request in flight then waited out (the hot path's p99).
 */
export const SEARCH_INDEX_SLICE = 100;

/** The SQLite host's search indexer on a timer (a search catches up by itself; this keeps the backlog small). */
export function createSearchIndexing(sql: Database.Database, log: Logger, everyMs = SEARCH_INDEX_EVERY_MS) {
  const indexer = createRunSearchIndexer(sql);
  let timer: NodeJS.Timeout | undefined;
  let slicing = false;
  const slice = () => {
    try {
      // Once stopped, stop() has caught up and the connection may be closed.
      if (timer !== undefined && indexer.catchUpSome(SEARCH_INDEX_SLICE)) {
        setImmediate(slice);
        return;
      }
    } catch (err) {
      // The documents stay waiting; the next tick or list tries again.
      log.error({ err }, "adding runs to the run list and search index failed");
    }
    slicing = false;
  };
  const tick = () => {
    if (slicing) return;
    slicing = true;
    slice();
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
      try {
        indexer.catchUp();
      } catch (err) {
        log.error({ err }, "adding runs to the run list and search index failed");
      }
    },
  };
}
