import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, openRawDatabase } from "@switchyard/db";
import type Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { createSqliteRunQueue } from "../queue/sqlite-run-queue";
import type { RunOutcome } from "../queue/types";
import { createWorker } from "./worker";

let dir: string;
let db: Database.Database;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-worker-"));
  db = openRawDatabase(path.join(dir, "w.db"));
  applyMigrations(db);
  db.prepare(`INSERT INTO "Flow" (id, name, updatedAt) VALUES ('f', 'f', '2026-01-01')`).run();
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
const log = createLogger("silent");
const rowCount = (status: string) =>
  (db.prepare(`SELECT COUNT(*) n FROM "Run" WHERE status = ?`).get(status) as { n: number }).n;
const rowOf = (id: string) =>
  db.prepare(`SELECT status, errorCode, errorMessage FROM "Run" WHERE id = ?`).get(id);

describe("worker", () => {
  it("runs a queued run and records its outcome", async () => {
    const queue = createSqliteRunQueue(db);
    const done = new Promise<RunOutcome>((resolve) => {
      const w = createWorker({
        queue,
        log,
        pollMs: 20,
        execute: async (run) => ({ status: "succeeded", outputJson: run.payloadJson }),
        onFinished: (_id, outcome) => {
          void w.stop();
          resolve(outcome);
        },
      });
      w.start();
    });
    const { id } = await queue.enqueue({
      flowId: "f",
      flowVersion: 1,
      channel: "manual",
      payloadJson: '{"x":1}',
    });
    expect(await done).toEqual({ status: "succeeded", outputJson: '{"x":1}' });
    expect(rowOf(id)).toEqual({ status: "succeeded", errorCode: null, errorMessage: null });
  });

  it("records a crashing executor as a failed run instead of leaving it running", async () => {
    const queue = createSqliteRunQueue(db);
    const { id } = await queue.enqueue({ flowId: "f", flowVersion: 1, channel: "manual", payloadJson: "{}" });
    await new Promise<void>((resolve) => {
      const w = createWorker({
        queue,
        log,
        pollMs: 20,
        execute: async () => {
          throw new Error("boom");
        },
        onFinished: () => {
          void w.stop();
          resolve();
        },
      });
      w.start();
    });
    expect(rowOf(id)).toEqual({ status: "failed", errorCode: "internal", errorMessage: "boom" });
  });

  it("aborts the in-flight run when it is cancelled", async () => {
    const queue = createSqliteRunQueue(db);
    const { id } = await queue.enqueue({ flowId: "f", flowVersion: 1, channel: "manual", payloadJson: "{}" });
    let sawAbort = false;
    const w = createWorker({
      queue,
      log,
      pollMs: 20,
      leaseMs: 300,
      execute: (_run, signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            sawAbort = true;
            resolve({ status: "cancelled", error: { code: "cancelled", message: "cancelled by a user" } });
          });
        }),
    });
    w.start();
    while (w.inFlight() === 0) await new Promise((r) => setTimeout(r, 10));
    expect(queue.requestCancel(id)).toBe("signalled");
    w.abort(id);
    await w.stop();
    expect(sawAbort).toBe(true);
    expect(rowOf(id)).toMatchObject({ status: "cancelled" });
  });

  it("keeps new inline admissions behind runs it had to queue, until a claim finds the queue drained", async () => {
    const queue = createSqliteRunQueue(db);
    const w = createWorker({
      queue,
      log,
      pollMs: 20,
      concurrency: 2,
      execute: async () => ({ status: "succeeded" }),
    });
    w.start();
    expect(w.tryReserve()).toBe(true);
    w.releaseReserved();
    // A run was queued (say the worker was full a moment ago): even with a free slot, nobody skips it.
    await queue.enqueue({ flowId: "f", flowVersion: 1, channel: "webhook", payloadJson: "{}" });
    w.noteQueued();
    expect(w.tryReserve()).toBe(false);
    while (rowCount("succeeded") < 1) await new Promise((r) => setTimeout(r, 5));
    // Inline admissions open again once a poll's claim finds nothing left, however long that poll takes.
    const deadline = Date.now() + 10_000;
    while (!w.tryReserve()) {
      if (Date.now() > deadline) throw new Error("no claim found the queue drained within 10 s");
      await new Promise((r) => setTimeout(r, 5));
    }
    w.releaseReserved();
    await w.stop();
  });
});
