import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations, openRawDatabase } from "@switchyard/db";
import type Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteRunQueue, MAX_CLAIMS } from "./sqlite-run-queue";

let dir: string;
let file: string;
let db: Database.Database;

function addFlow(id: string) {
  db.prepare(`INSERT INTO "Flow" (id, name, updatedAt) VALUES (?, ?, '2026-01-01')`).run(id, id);
}
const statusCounts = () =>
  Object.fromEntries(
    (
      db.prepare(`SELECT status, COUNT(*) n FROM "Run" GROUP BY status`).all() as {
        status: string;
        n: number;
      }[]
    ).map((r) => [r.status, r.n]),
  );

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-queue-"));
  file = path.join(dir, "q.db");
  db = openRawDatabase(file);
  applyMigrations(db);
  addFlow("f1");
  addFlow("f2");
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SQLite run queue", () => {
  it("makes a run durable before enqueue resolves", async () => {
    const q = createSqliteRunQueue(db);
    const { id } = await q.enqueue({
      flowId: "f1",
      flowVersion: 1,
      channel: "webhook",
      payloadJson: '{"a":1}',
    });
    const other = openRawDatabase(file);
    expect(other.prepare(`SELECT status, triggerPayload FROM "Run" WHERE id = ?`).get(id)).toEqual({
      status: "queued",
      triggerPayload: '{"a":1}',
    });
    other.close();
  });

  it("rejects only the bad admission of a group-committed batch", async () => {
    const q = createSqliteRunQueue(db);
    const results = await Promise.allSettled([
      q.enqueue({ flowId: "f1", flowVersion: 1, channel: "api", payloadJson: "{}" }),
      q.enqueue({ flowId: "no-such-flow", flowVersion: 1, channel: "api", payloadJson: "{}" }),
      q.enqueue({ flowId: "f2", flowVersion: 1, channel: "api", payloadJson: "{}" }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(statusCounts()).toEqual({ queued: 2 });
  });

  it("returns the first run for a repeated idempotency key within its window, and admits after it", async () => {
    let t = Date.parse("2026-11-30T10:00:00Z");
    const q = createSqliteRunQueue(db, { now: () => t });
    const run = {
      flowId: "f1",
      flowVersion: 1,
      channel: "webhook" as const,
      payloadJson: "{}",
      idempotency: { key: "f1:k", ttlMs: 1000 },
    };
    const [a, b] = await Promise.all([q.enqueue(run), q.enqueue(run)]);
    expect(a).toEqual({ id: a!.id, duplicate: false });
    expect(b).toEqual({ id: a!.id, duplicate: true });
    t += 1001;
    expect((await q.enqueue(run)).duplicate).toBe(false);
    expect(statusCounts()).toEqual({ queued: 2 });
  });

  it("keeps FIFO order within a flow under a per-flow limit", async () => {
    const q = createSqliteRunQueue(db);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await q.enqueue({ flowId: "f1", flowVersion: 1, channel: "api", payloadJson: "{}" })).id);
    const first = q.claim({ workerId: "w", max: 10, leaseMs: 1000, perFlowLimit: () => 1 });
    expect(first.map((r) => r.id)).toEqual([ids[0]]);
    expect(q.claim({ workerId: "w", max: 10, leaseMs: 1000, perFlowLimit: () => 1 })).toEqual([]);
    q.finish(ids[0]!, "w", { status: "succeeded" });
    expect(
      q.claim({ workerId: "w", max: 10, leaseMs: 1000, perFlowLimit: () => 1 }).map((r) => r.id),
    ).toEqual([ids[1]]);
  });

  it("respects the global limit across flows", async () => {
    const q = createSqliteRunQueue(db);
    await q.enqueue({ flowId: "f1", flowVersion: 1, channel: "api", payloadJson: "{}" });
    await q.enqueue({ flowId: "f2", flowVersion: 1, channel: "api", payloadJson: "{}" });
    expect(q.claim({ workerId: "w", max: 10, leaseMs: 1000, globalLimit: 1 })).toHaveLength(1);
    expect(q.claim({ workerId: "w", max: 10, leaseMs: 1000, globalLimit: 1 })).toHaveLength(0);
  });

  it("returns expired leases to the queue and refuses the old owner's late finish", async () => {
    let t = Date.parse("2026-11-30T10:00:00Z");
    const q = createSqliteRunQueue(db, { now: () => t });
    const { id } = await q.enqueue({ flowId: "f1", flowVersion: 1, channel: "api", payloadJson: "{}" });
    expect(q.claim({ workerId: "dead", max: 1, leaseMs: 1000 })).toHaveLength(1);
    t += 500;
    expect(q.reap()).toEqual({ requeued: 0, abandoned: 0 });
    t += 1000;
    expect(q.reap()).toEqual({ requeued: 1, abandoned: 0 });
    expect(q.claim({ workerId: "alive", max: 1, leaseMs: 1000 }).map((r) => r.id)).toEqual([id]);
    expect(q.finish(id, "dead", { status: "succeeded" })).toBe(false);
    expect(q.finish(id, "alive", { status: "succeeded" })).toBe(true);
  });

  it("fails a run whose workers keep dying instead of retrying it forever", async () => {
    let t = Date.parse("2026-11-30T10:00:00Z");
    const q = createSqliteRunQueue(db, { now: () => t });
    const { id } = await q.enqueue({ flowId: "f1", flowVersion: 1, channel: "api", payloadJson: "{}" });
    for (let i = 0; i < MAX_CLAIMS; i++) {
      expect(q.claim({ workerId: `w${i}`, max: 1, leaseMs: 10 })).toHaveLength(1);
      t += 20;
      q.reap();
    }
    expect(db.prepare(`SELECT status, errorCode, errorMessage FROM "Run" WHERE id = ?`).get(id)).toEqual({
      status: "failed",
      errorCode: "worker_lost",
      errorMessage: `the worker running this run stopped ${MAX_CLAIMS} times; giving up`,
    });
  });

  it("parks a waiting run until its resume time, then hands it out again", async () => {
    let t = Date.parse("2026-11-30T10:00:00Z");
    const q = createSqliteRunQueue(db, { now: () => t });
    const { id } = await q.enqueue({ flowId: "f1", flowVersion: 1, channel: "api", payloadJson: "{}" });
    q.claim({ workerId: "w", max: 1, leaseMs: 1000 });
    q.finish(id, "w", { status: "waiting", resumeAt: new Date(t + 60_000) });
    expect(statusCounts()).toEqual({ waiting: 1 });
    expect(q.claim({ workerId: "w", max: 1, leaseMs: 1000 })).toEqual([]);
    t += 60_001;
    expect(q.claim({ workerId: "w", max: 1, leaseMs: 1000 }).map((r) => r.id)).toEqual([id]);
  });

  it("cancels a queued run at once and signals a running one", async () => {
    const q = createSqliteRunQueue(db);
    const { id: a } = await q.enqueue({ flowId: "f1", flowVersion: 1, channel: "api", payloadJson: "{}" });
    const { id: b } = await q.enqueue({ flowId: "f2", flowVersion: 1, channel: "api", payloadJson: "{}" });
    q.claim({ workerId: "w", max: 1, leaseMs: 1000 });
    expect(q.requestCancel(a)).toBe("signalled");
    expect(q.isCancelRequested(a)).toBe(true);
    expect(q.requestCancel(b)).toBe("cancelled");
    expect(q.requestCancel("nope")).toBe("not_found");
    expect(q.requestCancel(b)).toBe("already_finished");
  });

  it("executes 1000 runs from concurrent producers exactly once across two processes, reaping a killed one", async () => {
    const q = createSqliteRunQueue(db);
    const producers = Array.from({ length: 4 }, (_, p) =>
      Promise.all(
        Array.from({ length: 250 }, (_, i) =>
          q.enqueue({
            flowId: i % 2 ? "f1" : "f2",
            flowVersion: 1,
            channel: "api",
            payloadJson: JSON.stringify({ p, i }),
          }),
        ),
      ),
    );
    const ids = (await Promise.all(producers)).flat().map((a) => a.id);
    expect(new Set(ids).size).toBe(1000);

    const consumer = fileURLToPath(new URL("../../test/queue-consumer.ts", import.meta.url));
    const spawnConsumer = (name: string) =>
      fork(consumer, [file, name, "400"], {
        execArgv: ["--import", "tsx"],
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
    const victim = spawnConsumer("victim");
    const survivor = spawnConsumer("survivor");
    // Kill the victim while it holds leases.
    await new Promise<void>((resolve) => victim.once("message", () => resolve()));
    victim.kill("SIGKILL");
    const reaper = setInterval(() => q.reap(), 100);
    await new Promise((resolve) => survivor.once("exit", resolve));
    clearInterval(reaper);

    expect(statusCounts()).toEqual({ succeeded: 1000 });
    const dupes = db.prepare(`SELECT runId, COUNT(*) n FROM completions GROUP BY runId HAVING n > 1`).all();
    expect(dupes).toEqual([]);
    expect((db.prepare(`SELECT COUNT(DISTINCT runId) n FROM completions`).get() as { n: number }).n).toBe(
      1000,
    );
    const reaped = db.prepare(`SELECT COUNT(*) n FROM "Run" WHERE attempts > 1`).get() as { n: number };
    expect(reaped.n).toBeGreaterThan(0);
  }, 60_000);
});
