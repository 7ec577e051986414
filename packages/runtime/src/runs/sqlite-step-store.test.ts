import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, openRawDatabase } from "@switchyard/db";
import type { StepRecord } from "@switchyard/engine";
import type Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteStepStore } from "./sqlite-step-store";
import { createStepExtras } from "./step-extras";

let dir: string;
let db: Database.Database;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-steps-"));
  db = openRawDatabase(path.join(dir, "s.db"));
  applyMigrations(db);
  db.prepare(`INSERT INTO "Flow" (id, name, updatedAt) VALUES ('f', 'f', '2026-01-01')`).run();
  db.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, channel, triggerPayload) VALUES ('r', 'f', 1, 'manual', '{}')`,
  ).run();
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const step = (nodeId: string, extra: Partial<StepRecord> = {}): StepRecord => ({
  runId: "r",
  stepId: `${nodeId}#1`,
  nodeId,
  visit: 1,
  attempt: 1,
  status: "succeeded",
  input: [],
  outputs: { main: [{ json: { nodeId } }] },
  startedAt: "2026-11-30T10:00:00.000Z",
  endedAt: "2026-11-30T10:00:00.005Z",
  ...extra,
});
const rows = () =>
  (db.prepare(`SELECT nodeId FROM "Step" ORDER BY id`).all() as { nodeId: string }[]).map((r) => r.nodeId);

describe("SQLite step store", () => {
  it("buffers pure steps and commits them with the next step that has effects, in order", async () => {
    const store = createSqliteStepStore(db);
    await store.save(step("trigger", { pure: true }));
    await store.save(step("set", { pure: true }));
    expect(rows()).toEqual([]);
    await store.save(step("http"));
    expect(rows()).toEqual(["trigger", "set", "http"]);
  });

  it("writes what is left when the run finishes, and loses only pure steps in a crash", async () => {
    const store = createSqliteStepStore(db);
    await store.save(step("trigger", { pure: true }));
    store.flushSync("r");
    await store.save(step("set", { pure: true }));
    // A new process (crash) never sees the buffered pure step: it runs again, harmlessly.
    const fresh = createSqliteStepStore(db);
    expect((await fresh.load("r")).map((s) => s.nodeId)).toEqual(["trigger"]);
  });

  it("round-trips a record with its error, attempt history and logs", async () => {
    const extras = createStepExtras();
    const store = createSqliteStepStore(db, extras);
    await store.save(
      step("http", {
        status: "failed",
        attempt: 1,
        retryAt: "2026-11-30T10:00:01.000Z",
        error: { code: "http_failed", message: "503", retryable: true },
      }),
    );
    extras.log("r", "http", "info", "second try");
    await store.save(step("http", { attempt: 2 }));
    const loaded = await store.load("r");
    expect(loaded.map((s) => [s.attempt, s.status, s.error?.code])).toEqual([
      [1, "failed", "http_failed"],
      [2, "succeeded", undefined],
    ]);
    const logs = db.prepare(`SELECT logs FROM "Step" WHERE attempt = 2`).get() as { logs: string };
    expect(JSON.parse(logs.logs).logs[0].message).toBe("second try");
  });

  it("bounds a huge output in the trace with a marker", async () => {
    const store = createSqliteStepStore(db);
    await store.save(step("big", { outputs: { main: [{ json: { blob: "x".repeat(5 * 1024 * 1024) } }] } }));
    const row = db.prepare(`SELECT output, truncated FROM "Step"`).get() as {
      output: string;
      truncated: number;
    };
    expect(row.truncated).toBe(1);
    expect(JSON.parse(row.output)).toMatchObject({ __truncated: true });
  });
});
