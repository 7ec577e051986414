// The RunCount table and the RunSearch index are kept by triggers: these tests change runs every way the
// app does (admission, status moves, errors, step failures, retention deletes, flow deletes) and compare
// with an independent GROUP BY over Run.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDatabase } from "../__tests__/temp-db";
import { sqlDate } from "../dates";
import { newId } from "../ids";
import { applyMigrations, defaultMigrationsDir, readMigrations } from "../migrate";
import { openDatabase } from "../open";
import { createFlowRepo } from "./flows";
import { createRunRepo } from "./runs";
import { deleteEmptyRunCounts, runVolume } from "./run-volume";

let db: ReturnType<typeof tempDatabase>;
let repo: ReturnType<typeof createRunRepo>;
let flowA: string;
let flowB: string;
const hour = Date.parse("2026-06-01T10:00:00Z");

beforeEach(async () => {
  db = tempDatabase();
  const flows = createFlowRepo(db.prisma);
  flowA = (await flows.create({ name: "A", definition: { nodes: [] } })).id;
  flowB = (await flows.create({ name: "B", definition: { nodes: [] } })).id;
  repo = createRunRepo(db.prisma, db.sql);
});
afterEach(async () => {
  await db.cleanup();
});

function insertRun(o: {
  flowId: string;
  at: number;
  status?: string;
  channel?: string;
  payload?: string;
  error?: string;
}) {
  const id = newId();
  db.sql
    .prepare(
      `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, createdAt, errorMessage)
       VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      o.flowId,
      o.status ?? "queued",
      o.channel ?? "webhook",
      o.payload ?? "{}",
      sqlDate(o.at),
      sqlDate(o.at),
      o.error ?? null,
    );
  return id;
}

/** Counts straight from Run, the way the repository used to take them. */
function scanCounts(where = "1 = 1", args: unknown[] = []) {
  const byStatus: Record<string, number> = {};
  for (const r of db.sql
    .prepare(`SELECT status, count(*) AS n FROM "Run" WHERE ${where} GROUP BY status`)
    .all(...args) as { status: string; n: number }[])
    byStatus[r.status] = r.n;
  return byStatus;
}

describe("status counts kept by triggers", () => {
  it("follow admissions, status changes and deletes, per flow, channel and time range", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 300; i++)
      ids.push(
        insertRun({
          flowId: i % 3 ? flowA : flowB,
          at: hour + i * 47_000, // about four hours of runs, so ranges cut hours in the middle
          channel: i % 4 ? "webhook" : "email",
        }),
      );
    const setStatus = db.sql.prepare(`UPDATE "Run" SET status = ? WHERE id = ?`);
    for (const [i, id] of ids.entries()) {
      if (i % 2) setStatus.run("running", id);
      if (i % 5 === 0) setStatus.run("succeeded", id);
      if (i % 7 === 0) setStatus.run("failed", id);
    }
    const del = db.sql.prepare(`DELETE FROM "Run" WHERE id = ?`);
    for (const id of ids.filter((_, i) => i % 11 === 0)) del.run(id);

    expect((await repo.counts({})).byStatus).toEqual(scanCounts());
    expect((await repo.counts({ flowId: flowA })).byStatus).toEqual(scanCounts("flowId = ?", [flowA]));
    expect((await repo.counts({ channel: ["email"] })).byStatus).toEqual(scanCounts("channel = 'email'"));
    const from = new Date(hour + 37 * 60_000);
    const to = new Date(hour + 3 * 3_600_000 + 12 * 60_000);
    expect((await repo.counts({ flowId: flowB, channel: "webhook", from, to })).byStatus).toEqual(
      scanCounts("flowId = ? AND channel = 'webhook' AND createdAt >= ? AND createdAt < ?", [
        flowB,
        sqlDate(from),
        sqlDate(to),
      ]),
    );
    const c = await repo.counts({});
    expect(c.total).toBe(ids.length - Math.ceil(ids.length / 11));
    expect(c.live).toBe((c.byStatus.queued ?? 0) + (c.byStatus.running ?? 0));
  });

  it("drop a deleted flow's runs, which go by cascade", async () => {
    insertRun({ flowId: flowA, at: hour });
    insertRun({ flowId: flowB, at: hour, status: "failed" });
    await createFlowRepo(db.prisma).delete(flowB);
    expect((await repo.counts({})).byStatus).toEqual({ queued: 1 });
  });
});

describe("search index kept by triggers", () => {
  it("finds a run by its payload at once, and by an error set later", async () => {
    const id = insertRun({ flowId: flowA, at: hour, payload: '{"customer":"Zebulon Ltd"}' });
    expect((await repo.list({ search: "zebulon" })).runs.map((r) => r.id)).toEqual([id]);
    expect((await repo.list({ search: "zebulon", status: "queued" })).runs).toHaveLength(1);
    db.sql
      .prepare(`UPDATE "Run" SET status = 'failed', errorMessage = ?, durationMs = 42 WHERE id = ?`)
      .run("quux exploded", id);
    expect((await repo.list({ search: "quux" })).runs.map((r) => r.id)).toEqual([id]);
    // The search document's status and duration followed the run.
    expect((await repo.list({ search: "zebulon", status: "queued" })).runs).toEqual([]);
    expect((await repo.list({ search: "zebulon", status: "failed", sort: "duration" })).runs).toHaveLength(1);
    expect((await repo.counts({ search: "zebulon" })).byStatus).toEqual({ failed: 1 });
    expect(db.sql.prepare(`SELECT durationMs FROM "RunSearchDoc" WHERE runId = ?`).pluck().get(id)).toBe(42);
  });

  it("finds a run by a failed step's error", async () => {
    const id = insertRun({ flowId: flowA, at: hour });
    db.sql
      .prepare(
        `INSERT INTO "Step" (id, runId, stepId, nodeId, status, errorMessage) VALUES (?, ?, 'n#1', 'n', 'failed', ?)`,
      )
      .run(newId(), id, "mailbox unavailable");
    expect((await repo.list({ search: "mailbox" })).runs.map((r) => r.id)).toEqual([id]);
  });

  it("forgets deleted runs: no result and no index entry is left behind", async () => {
    const keep = insertRun({ flowId: flowA, at: hour, payload: '{"tag":"walrus"}' });
    const gone = insertRun({
      flowId: flowA,
      at: hour + 1,
      payload: '{"tag":"walrus"}',
      error: "walrus error",
    });
    db.sql
      .prepare(
        `INSERT INTO "Step" (id, runId, stepId, nodeId, status, errorMessage) VALUES (?, ?, 'n#1', 'n', 'failed', 'walrus step')`,
      )
      .run(newId(), gone);
    db.sql.prepare(`DELETE FROM "Step" WHERE runId = ?`).run(gone); // as retention does, steps first
    db.sql.prepare(`DELETE FROM "Run" WHERE id = ?`).run(gone);
    expect((await repo.list({ search: "walrus" })).runs.map((r) => r.id)).toEqual([keep]);
    expect((await repo.counts({ search: "walrus" })).total).toBe(1);
    expect(db.sql.prepare(`SELECT count(*) FROM "RunSearchDoc"`).pluck().get()).toBe(1);
    expect(
      db.sql.prepare(`SELECT count(*) FROM "RunSearch" WHERE "RunSearch" MATCH 'walrus'`).pluck().get(),
    ).toBe(1);
  });

  it("indexes only the first 8 KiB of a payload", async () => {
    const id = insertRun({
      flowId: flowA,
      at: hour,
      payload: JSON.stringify({ a: "early", pad: "x ".repeat(5000), z: "late" }),
    });
    expect((await repo.list({ search: "early" })).runs.map((r) => r.id)).toEqual([id]);
    expect((await repo.list({ search: "late" })).runs).toEqual([]);
  });
});

describe("search documents admitted between indexer batches", () => {
  const inIndex = (word: string) =>
    db.sql.prepare(`SELECT count(*) FROM "RunSearch" WHERE "RunSearch" MATCH ?`).pluck().get(word);

  it("wait outside the full-text index until the indexer's batch, which adds each once", async () => {
    const ids = [1, 2, 3].map((i) => insertRun({ flowId: flowA, at: hour + i, payload: '{"pet":"okapi"}' }));
    expect(inIndex("okapi")).toBe(0);
    expect(repo.indexSearch()).toBe(3);
    expect(inIndex("okapi")).toBe(3);
    expect(repo.indexSearch()).toBe(0);
    expect((await repo.list({ search: "okapi" })).runs.map((r) => r.id)).toEqual([...ids].reverse());
  });

  it("are found by a search without waiting for the timer (the search indexes them first)", async () => {
    const id = insertRun({ flowId: flowA, at: hour, payload: '{"pet":"quokka"}' });
    expect((await repo.counts({ search: "quokka" })).total).toBe(1);
    expect((await repo.list({ search: "quokka" })).runs.map((r) => r.id)).toEqual([id]);
  });

  it("get a failure that came before the batch from the batch, and one after it by re-indexing in place", async () => {
    const early = insertRun({ flowId: flowA, at: hour, payload: '{"pet":"tapir"}' });
    db.sql
      .prepare(`UPDATE "Run" SET status = 'failed', errorMessage = 'gasket burst' WHERE id = ?`)
      .run(early);
    expect(inIndex("gasket")).toBe(0);
    repo.indexSearch();
    const late = insertRun({ flowId: flowA, at: hour + 1, payload: '{"pet":"tapir"}' });
    repo.indexSearch();
    db.sql.prepare(`UPDATE "Run" SET status = 'failed', errorMessage = 'valve stuck' WHERE id = ?`).run(late);
    // One entry per run: the re-indexed document replaced its earlier text under the same rowid.
    expect(inIndex("gasket")).toBe(1);
    expect(inIndex("valve")).toBe(1);
    expect(inIndex("tapir")).toBe(2);
    expect((await repo.list({ search: "valve" })).runs.map((r) => r.id)).toEqual([late]);
    expect((await repo.list({ search: "gasket" })).runs.map((r) => r.id)).toEqual([early]);
  });
});

describe("upgrading a database that already holds runs", () => {
  it("fills the counts and the search index from the runs already stored", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "switchyard-upgrade-"));
    const before = path.join(dir, "migrations");
    const first = readMigrations()[0]!.name;
    cpSync(path.join(defaultMigrationsDir, first), path.join(before, first), { recursive: true });
    const old = openDatabase(path.join(dir, "switchyard.db"));
    try {
      applyMigrations(old.sql, { dir: before });
      const flowId = (await createFlowRepo(old.prisma).create({ name: "F", definition: { nodes: [] } })).id;
      const add = old.sql.prepare(
        `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, createdAt, errorMessage)
         VALUES (?, ?, 1, ?, 'cron', ?, ?, ?, ?)`,
      );
      const failed = newId();
      add.run(newId(), flowId, "succeeded", '{"city":"Lisbon"}', sqlDate(hour), sqlDate(hour), null);
      add.run(failed, flowId, "failed", "{}", sqlDate(hour + 1), sqlDate(hour + 1), "gateway refused");
      old.sql
        .prepare(
          `INSERT INTO "Step" (id, runId, stepId, nodeId, status, errorMessage) VALUES (?, ?, 'n#1', 'n', 'failed', 'rate limited')`,
        )
        .run(newId(), failed);

      expect(applyMigrations(old.sql).applied).toHaveLength(readMigrations().length - 1);
      const upgraded = createRunRepo(old.prisma, old.sql);
      expect((await upgraded.counts({})).byStatus).toEqual({ succeeded: 1, failed: 1 });
      expect((await upgraded.list({ search: "lisbon" })).runs).toHaveLength(1);
      expect((await upgraded.list({ search: "gateway" })).runs.map((r) => r.id)).toEqual([failed]);
      expect((await upgraded.list({ search: "rate limited" })).runs.map((r) => r.id)).toEqual([failed]);
    } finally {
      await old.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("run volume", () => {
  it("counts every stored run and those of the last 24 hours, and drops emptied counters", async () => {
    const now = hour + 30 * 3_600_000;
    insertRun({ flowId: flowA, at: now - 2 * 3_600_000 });
    insertRun({ flowId: flowA, at: now - 25 * 3_600_000 });
    const old = insertRun({ flowId: flowB, at: now - 29 * 3_600_000, status: "failed" });
    expect(runVolume(db.sql, now)).toEqual({ total: 3, lastDay: 1 });
    db.sql.prepare(`DELETE FROM "Run" WHERE id = ?`).run(old);
    expect(runVolume(db.sql, now)).toEqual({ total: 2, lastDay: 1 });
    expect(deleteEmptyRunCounts(db.sql)).toBe(2); // its hour's row and its flow's "failed" total
    expect(db.sql.prepare(`SELECT count(*) FROM "RunCount"`).pluck().get()).toBe(2);
    expect(db.sql.prepare(`SELECT count(*) FROM "RunTotal"`).pluck().get()).toBe(1);
  });
});
