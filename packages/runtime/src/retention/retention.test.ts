import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  applyMigrations,
  createFlowRepo,
  createSettingsRepo,
  type DatabaseHandle,
  newId,
  openDatabase,
  sqlDate,
} from "@switchyard/db";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { createSqliteRunQueue } from "../queue/sqlite-run-queue";
import { createAttachmentStore } from "../runs/attachments";
import { purgeExpiredIdempotencyKeys } from "./idempotency-keys";
import { createRetentionJob } from "./job";
import { DEFAULT_RETENTION, effectiveRule, RetentionPolicy } from "./policy";
import { pruneRuns } from "./prune";

const DAY = 86_400_000;
const NOW = Date.parse("2026-06-01T12:00:00Z");
const statuses = [
  "succeeded",
  "failed",
  "cancelled",
  "timed_out",
  "running",
  "succeeded",
  "queued",
  "waiting",
  "failed",
  "succeeded",
];
const FINISHED = ["succeeded", "failed", "cancelled", "timed_out"];
const FAILED = ["failed", "timed_out"];

interface Seeded {
  id: string;
  flowId: string;
  status: string;
  createdAt: number;
}

let dir: string;
let db: DatabaseHandle;
let flows: { a: string; b: string; c: string };

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-retention-"));
  db = openDatabase(path.join(dir, "switchyard.db"));
  applyMigrations(db.sql);
  const repo = createFlowRepo(db.prisma);
  const make = async (name: string) => (await repo.create({ name, definition: { nodes: [] } })).id;
  flows = { a: await make("A"), b: await make("B"), c: await make("C") };
});

afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs spread over 60 days with every status, each with a payload of `payloadBytes` and one step. */
function seed(count: number, payloadBytes: number): Seeded[] {
  const insertRun = db.sql.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, createdAt) VALUES (?, ?, 1, ?, 'webhook', ?, ?, ?)`,
  );
  const insertStep = db.sql.prepare(
    `INSERT INTO "Step" (id, runId, stepId, nodeId, status, output, truncated, startedAt, endedAt) VALUES (?, ?, 'n#1', 'n', 'succeeded', ?, 0, ?, ?)`,
  );
  const filler = "x".repeat(payloadBytes);
  const ids = [flows.a, flows.b, flows.c];
  const out: Seeded[] = [];
  db.sql.transaction(() => {
    for (let i = 0; i < count; i++) {
      const createdAt = NOW - (i % 60) * DAY - (i % 1440) * 60_000;
      const r = { id: newId(), flowId: ids[i % 3]!, status: statuses[i % statuses.length]!, createdAt };
      const at = sqlDate(createdAt);
      insertRun.run(r.id, r.flowId, r.status, JSON.stringify({ i, filler }), at, at);
      insertStep.run(newId(), r.id, JSON.stringify({ main: [{ json: { i } }] }), at, at);
      out.push(r);
    }
  })();
  return out;
}

/** Survivors of a policy, computed independently of the SQL. */
function survivors(rows: Seeded[], policy: RetentionPolicy): Set<string> {
  const keep = new Set<string>();
  for (const flowId of Object.values(flows)) {
    const rule = effectiveRule(policy, flowId);
    const failedDays = rule.keepFailedDays ?? rule.keepDays;
    const mine = rows.filter((r) => r.flowId === flowId);
    const aged = mine.filter((r) => {
      if (!FINISHED.includes(r.status)) return true;
      const days = FAILED.includes(r.status) ? failedDays : rule.keepDays;
      return days === undefined || r.createdAt >= NOW - days * DAY;
    });
    const finished = aged
      .filter((r) => FINISHED.includes(r.status))
      .sort((x, y) => y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1));
    const dropped = new Set(
      rule.keepRuns === undefined ? [] : finished.slice(rule.keepRuns).map((r) => r.id),
    );
    for (const r of aged) if (!dropped.has(r.id)) keep.add(r.id);
  }
  return keep;
}

async function until(ok: () => boolean) {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
}

/** A retention job on the test database at NOW, with the lines it logs. */
function loggedJob(extra: Partial<Parameters<typeof createRetentionJob>[0]> = {}) {
  const lines: string[] = [];
  const job = createRetentionJob({
    sql: db.sql,
    file: db.file,
    settings: createSettingsRepo(db.prisma),
    log: pino({ level: "info" }, { write: (line: string) => lines.push(line) }),
    now: () => NOW,
    ...extra,
  });
  return { job, lines };
}

const remainingIds = () =>
  new Set((db.sql.prepare(`SELECT id FROM "Run"`).all() as { id: string }[]).map((r) => r.id));
const fileSize = () => {
  db.sql.pragma("wal_checkpoint(TRUNCATE)");
  return statSync(db.file).size;
};

describe("retention", () => {
  it("deletes exactly what the global policy and per-flow overrides no longer keep, and the file shrinks", async () => {
    const rows = seed(20_000, 20 * 1024);
    const settings = createSettingsRepo(db.prisma);
    const job = createRetentionJob({
      sql: db.sql,
      file: db.file,
      settings,
      log: createLogger("silent"),
      now: () => NOW,
    });
    const policy = await job.setPolicy({
      keepDays: 30,
      keepFailedDays: 7,
      flows: { [flows.b]: { keepRuns: 1000 }, [flows.c]: { keepDays: 365, keepFailedDays: 365 } },
    });
    const want = survivors(rows, policy);
    const before = fileSize();

    const report = await job.runOnce();
    const after = fileSize();

    expect(remainingIds()).toEqual(want);
    expect(report.prune.deletedRuns).toBe(rows.length - want.size);
    expect(report.prune.byFlow[flows.c]).toBeUndefined();
    expect(
      db.sql.prepare(`SELECT COUNT(*) AS n FROM "Step" WHERE runId NOT IN (SELECT id FROM "Run")`).get(),
    ).toEqual({ n: 0 });
    expect(report.reclaim.action).toBe("vacuum");
    // At least 90% of the deleted payload bytes went back to the disk.
    expect(before - after).toBeGreaterThan(report.prune.deletedRuns * 20 * 1024 * 0.9);
    expect(db.sql.pragma("integrity_check", { simple: true })).toBe("ok");
    console.log(
      `retention: ${rows.length} runs, ${report.prune.deletedRuns} deleted in ${report.prune.batches} batches ` +
        `(longest ${report.prune.longestBatchMs.toFixed(1)} ms), file ${(before / 1e6).toFixed(1)} MB → ${(after / 1e6).toFixed(1)} MB, ` +
        `job ${report.durationMs.toFixed(0)} ms (reclaim ${report.reclaim.durationMs.toFixed(0)} ms)`,
    );

    // The VACUUM switched the database to incremental auto-vacuum: the next prune reclaims without a rewrite.
    expect(job.size().autoVacuum).toBe("incremental");
    await job.setPolicy({ keepDays: 3 });
    const second = await job.runOnce();
    expect(second.prune.deletedRuns).toBeGreaterThan(0);
    expect(second.reclaim.action).toBe("incremental");
    expect(second.reclaim.after.freePages).toBe(0);
    expect(fileSize()).toBeLessThan(after);
  }, 120_000);

  it("lets admissions through between delete batches", async () => {
    seed(3_000, 256);
    const queue = createSqliteRunQueue(db.sql);
    const events: string[] = [];
    const pruning = pruneRuns(db.sql, RetentionPolicy.parse({ keepDays: 1 }), {
      now: NOW,
      batchSize: 100,
      pause: async () => {
        events.push("batch");
        await new Promise<void>((r) => setImmediate(r));
      },
    });
    const admitted = queue
      .enqueue({ flowId: flows.a, flowVersion: 1, channel: "api", payloadJson: "{}" })
      .then(() => events.push("admitted"));
    const report = await pruning;
    await admitted;
    expect(report.batches).toBeGreaterThan(10);
    // The admission committed after the first batch, long before the last one.
    expect(events.indexOf("admitted")).toBeGreaterThan(0);
    expect(events.indexOf("admitted")).toBeLessThan(3);
  });

  it("deletes expired idempotency keys slice by slice, and a key still in its window keeps deduplicating", async () => {
    let t = NOW;
    const queue = createSqliteRunQueue(db.sql, { now: () => t });
    const keyed = (key: string, ttlMs: number) =>
      queue.enqueue({
        flowId: flows.a,
        flowVersion: 1,
        channel: "webhook",
        payloadJson: "{}",
        idempotency: { key, ttlMs },
      });
    // Interleaved so every slice holds both kinds.
    for (let i = 0; i < 250; i++) {
      await keyed(`short-${i}`, 60_000);
      await keyed(`long-${i}`, 3_600_000);
    }
    const first = await keyed("long-0", 3_600_000);
    expect(first.duplicate).toBe(true);
    t = NOW + 10 * 60_000;
    let pauses = 0;
    const report = await purgeExpiredIdempotencyKeys(db.sql, {
      now: t,
      slice: 100,
      pause: async () => {
        pauses++;
      },
    });
    expect(report.deleted).toBe(250);
    expect(pauses).toBe(5); // 500 rows in slices of 100, the event loop yielded after each
    const keys = db.sql.prepare(`SELECT key FROM "IdempotencyKey" ORDER BY key`).pluck().all() as string[];
    expect(keys).toHaveLength(250);
    expect(keys.every((k) => k.startsWith("long-"))).toBe(true);
    // The purge took nothing still in its window: the same key is still a duplicate of the same run.
    expect(await keyed("long-0", 3_600_000)).toEqual(first);
    // And an expired key purged is admitted as new, as it was before the purge.
    expect((await keyed("short-0", 60_000)).duplicate).toBe(false);
  });

  it("purges expired idempotency keys as part of the retention job and logs how many", async () => {
    const queue = createSqliteRunQueue(db.sql, { now: () => NOW - 2 * DAY });
    for (let i = 0; i < 3; i++)
      await queue.enqueue({
        flowId: flows.a,
        flowVersion: 1,
        channel: "webhook",
        payloadJson: "{}",
        idempotency: { key: `k${i}`, ttlMs: 60_000 },
      });
    const { job, lines } = loggedJob();
    const report = await job.runOnce();
    await job.stop();
    expect(report.idempotencyKeys.deleted).toBe(3);
    expect(db.sql.prepare(`SELECT count(*) FROM "IdempotencyKey"`).pluck().get()).toBe(0);
    expect(lines.map((l) => JSON.parse(l)).find((l) => l.expiredIdempotencyKeys !== undefined)).toMatchObject(
      {
        expiredIdempotencyKeys: 3,
        msg: "retention: pruned old runs and expired idempotency keys",
      },
    );
  });

  it("never deletes queued, running or waiting runs, however old", async () => {
    const rows = seed(600, 64);
    const live = rows.filter((r) => !FINISHED.includes(r.status)).length;
    const left = () => [...remainingIds()].map((id) => rows.find((r) => r.id === id)!);
    // keepRuns: 1 leaves the newest finished run of each flow, and every live one.
    await pruneRuns(db.sql, RetentionPolicy.parse({ keepRuns: 1 }), { now: NOW, batchSize: 50 });
    expect(left().filter((r) => FINISHED.includes(r.status))).toHaveLength(3);
    expect(left().filter((r) => !FINISHED.includes(r.status))).toHaveLength(live);
    await pruneRuns(db.sql, RetentionPolicy.parse({ keepDays: 0.001 }), {
      now: NOW + 365 * DAY,
      batchSize: 50,
    });
    expect(left().filter((r) => FINISHED.includes(r.status))).toHaveLength(0);
    expect(left().filter((r) => !FINISHED.includes(r.status))).toHaveLength(live);
  });

  it("applies the default (14 days, 10 000 runs per flow) while no policy is saved, and says so at start", async () => {
    const rows = seed(120, 64);
    const { job, lines } = loggedJob({ firstRunDelayMs: 3_600_000 });
    job.start();
    await until(() => lines.length > 0);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      keepDays: 14,
      keepRuns: 10_000,
      msg: expect.stringContaining("retention: no policy saved, so the default applies"),
    });
    expect(await job.policySource()).toBe("default");
    expect(await job.getPolicy()).toEqual(DEFAULT_RETENTION);
    const report = await job.runOnce();
    await job.stop();
    expect(report.prune.deletedRuns).toBeGreaterThan(0);
    expect(remainingIds()).toEqual(survivors(rows, DEFAULT_RETENTION));
  });

  it("keeps everything once a policy with empty fields is saved, and refuses an invalid one with the field named", async () => {
    seed(50, 64);
    const job = createRetentionJob({
      sql: db.sql,
      file: db.file,
      settings: createSettingsRepo(db.prisma),
      log: createLogger("silent"),
    });
    await job.setPolicy({});
    expect(await job.policySource()).toBe("saved");
    expect((await job.runOnce()).prune.deletedRuns).toBe(0);
    expect(remainingIds().size).toBe(50);
    await expect(job.setPolicy({ keepDays: -1 })).rejects.toThrow(/keepDays/);
    await expect(job.setPolicy({ keepRuns: 1.5 } as never)).rejects.toThrow(/keepRuns/);
    await expect(job.setPolicy({ storageBudgetMb: 0 })).rejects.toThrow(/storageBudgetMb/);
    expect(await job.getPolicy()).toEqual({ flows: {} });
  });

  it("deletes the oldest finished runs beyond the storage budget, never a live one, and reports it", async () => {
    const rows = seed(600, 4000);
    const { job } = loggedJob();
    await job.setPolicy({}); // no age or count rule: only the budget deletes
    await job.runOnce(); // switches the file to incremental vacuum, so freed pages leave the file
    const full = (await job.storage()).size;
    const budgetMb = (full.databaseBytes - full.freeBytes) / 2 / 1024 / 1024;
    await job.setPolicy({ storageBudgetMb: budgetMb });
    const before = await job.storage();
    expect(before.budgetUsed).toBeGreaterThan(1);
    expect(before.warning).toMatch(
      /is over its \d+ MB storage budget: the next pruning deletes the oldest finished runs/,
    );

    const report = await job.runOnce();
    const left = remainingIds();
    expect(report.prune.overBudgetRuns).toBe(rows.length - left.size);
    const deleted = rows.filter((r) => !left.has(r.id));
    const kept = rows.filter((r) => left.has(r.id));
    expect(deleted.every((r) => FINISHED.includes(r.status))).toBe(true);
    const newestDeleted = Math.max(...deleted.map((r) => r.createdAt));
    expect(kept.filter((r) => FINISHED.includes(r.status)).every((r) => r.createdAt >= newestDeleted)).toBe(
      true,
    );
    expect(kept.filter((r) => !FINISHED.includes(r.status))).toHaveLength(
      rows.filter((r) => !FINISHED.includes(r.status)).length,
    );
    const after = await job.storage();
    expect(after.size.databaseBytes - after.size.freeBytes).toBeLessThanOrEqual(budgetMb * 1024 * 1024);
    expect(after.runs.total).toBe(left.size);
  });

  it("deletes the attachment files of pruned e-mail runs, keeping those a remaining run still lists", async () => {
    const store = createAttachmentStore(dir);
    const file = async (name: string) =>
      store.store(Buffer.from(name), { filename: name, contentType: "text/plain" });
    const [onlyOld, shared, unrelated] = [
      await file("only-old"),
      await file("shared"),
      await file("unrelated"),
    ];
    const insert = db.sql.prepare(
      `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, createdAt) VALUES (?, ?, 1, 'succeeded', 'email', ?, ?, ?)`,
    );
    const run = (flowId: string, at: number, ids: string[]) => {
      const payload = JSON.stringify({
        subject: "s",
        attachments: ids.map((id) => ({ id, filename: "f", contentType: "text/plain", size: 1 })),
      });
      insert.run(newId(), flowId, payload, sqlDate(at), sqlDate(at));
    };
    // One message for two flows shares its attachments; flow B keeps its runs longer.
    run(flows.a, NOW - 40 * DAY, [onlyOld, shared]);
    run(flows.b, NOW - 40 * DAY, [shared]);
    const { job } = loggedJob({ removeAttachment: store.remove });
    await job.setPolicy({ keepDays: 30, flows: { [flows.b]: { keepDays: 90 } } });
    const report = await job.runOnce();
    expect(report.prune.deletedRuns).toBe(1);
    expect(report.attachments).toEqual({ deleted: 1, stillReferenced: 1 });
    expect(existsSync(store.pathOf(onlyOld)!)).toBe(false);
    expect(existsSync(store.pathOf(shared)!)).toBe(true);
    expect(existsSync(store.pathOf(unrelated)!)).toBe(true);
    // Once the last run listing it is pruned, the shared file goes too.
    await job.setPolicy({ keepDays: 30 });
    expect((await job.runOnce()).attachments).toEqual({ deleted: 1, stillReferenced: 0 });
    expect(existsSync(store.pathOf(shared)!)).toBe(false);
  });

  it("merges a flow override field by field over the global rule", () => {
    const policy = RetentionPolicy.parse({ keepDays: 30, keepFailedDays: 7, flows: { f: { keepDays: 90 } } });
    expect(effectiveRule(policy, "f")).toEqual({ keepDays: 90, keepFailedDays: 7 });
    expect(effectiveRule(policy, "other")).toEqual({ keepDays: 30, keepFailedDays: 7 });
  });
});
