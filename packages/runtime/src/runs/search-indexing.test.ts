import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  applyMigrations,
  createFlowRepo,
  type DatabaseHandle,
  newId,
  openDatabase,
  sqlDate,
} from "@switchyard/db";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../logger";
import { createSearchIndexing, SEARCH_INDEX_SLICE } from "./search-indexing";

let dir: string;
let db: DatabaseHandle;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-search-indexing-"));
  db = openDatabase(path.join(dir, "switchyard.db"));
  applyMigrations(db.sql);
  const flowId = (await createFlowRepo(db.prisma).create({ name: "F", definition: { nodes: [] } })).id;
  const add = db.sql.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, createdAt)
     VALUES (?, ?, 1, 'succeeded', 'webhook', '{"pet":"okapi"}', ?, ?)`,
  );
  const at = sqlDate(Date.now());
  db.sql.transaction(() => {
    for (let i = 0; i < 3.5 * SEARCH_INDEX_SLICE; i++) add.run(newId(), flowId, at, at);
  })();
});
afterEach(async () => {
  vi.useRealTimers();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const pending = () => db.sql.prepare(`SELECT count(*) FROM "RunDocPending"`).pluck().get() as number;
const indexed = () =>
  db.sql.prepare(`SELECT count(*) FROM "RunSearch" WHERE "RunSearch" MATCH 'okapi'`).pluck().get() as number;

describe("the host's run list and search indexing", () => {
  it("writes a backlog one slice per event-loop turn, so requests are answered between slices", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "setImmediate"] });
    const indexing = createSearchIndexing(db.sql, createLogger("silent"), 10);
    indexing.start();
    const seen: number[] = [];
    for (let turn = 0; turn < 5; turn++) {
      vi.advanceTimersToNextTimer();
      seen.push(pending());
    }
    const slice = SEARCH_INDEX_SLICE;
    expect(seen).toEqual([2.5 * slice, 1.5 * slice, 0.5 * slice, 0, 0]);
    expect(indexed()).toBe(3.5 * slice);
    indexing.stop();
  });

  it("writes everything still waiting when it stops", () => {
    const indexing = createSearchIndexing(db.sql, createLogger("silent"), 60_000);
    indexing.start();
    expect(pending()).toBe(3.5 * SEARCH_INDEX_SLICE);
    indexing.stop();
    expect(pending()).toBe(0);
    expect(indexed()).toBe(3.5 * SEARCH_INDEX_SLICE);
  });
});
