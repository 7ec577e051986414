import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

export interface Checkpointer {
  /** Stops the thread after its current checkpoint and closes its connection. */
  stop(): Promise<void>;
}

/**
 * Pages the main connection may let the WAL reach before it checkpoints inline. The background thread
 * normally keeps far below it; the inline checkpoint is what lets the WAL start over (SQLite restarts it only
 * when a write begins with every frame copied, which a concurrent checkpointer never sees under steady load),
 * and by then it has only the last few frames and the two fsyncs left to do.
 */
export const INLINE_CHECKPOINT_PAGES = 4000;

// CommonJS, evaluated in the worker: no file to find next to a bundle.
const source = `
const { workerData, parentPort } = require("node:worker_threads");
const report = (err) => parentPort.postMessage({ error: String((err && err.message) || err) });
let db;
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.file, { fileMustExist: true });
  // A checkpoint syncs the WAL before copying and the database after: the durability of what it copies.
  db.pragma("synchronous = NORMAL");
} catch (err) {
  report(err);
}
const timer = db && setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (err) {
    report(err);
  }
}, workerData.everyMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db?.close();
  parentPort.close();
});
`;

/**
 * Copies WAL frames into the database file from a thread of its own, so the page copies and fsyncs of a
 * checkpoint no longer stall the main thread's commits (bench/webhook.ts: the run admission's group commit
 * is the hot path's largest cost, and the inline checkpoint was its longest pause). PASSIVE never waits for
 * readers or writers; anything it cannot copy yet is copied on a later tick. Crash-safe as any checkpoint:
 * the WAL stays the truth until its frames are in the database file.
 */
export function startCheckpointer(
  file: string,
  opts: { everyMs?: number; onError?: (message: string) => void } = {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(source, {
    eval: true,
    workerData: { file, driver, everyMs: opts.everyMs ?? 100 },
    // The thread holds one connection and a timer: a small heap keeps its share of the process small.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
  });
  worker.unref();
  worker.on("message", (m: { error?: string }) => m.error && opts.onError?.(m.error));
  worker.on("error", (err: unknown) => opts.onError?.(String((err as Error)?.message ?? err)));
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    async stop() {
      worker.ref(); // unreferenced, it would let the process exit before the thread closes its connection
      worker.postMessage("stop");
      await exited;
    },
  };
}
