import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDatabase } from "../__tests__/temp-db";
import { sqlDate } from "../dates";
import { newId } from "../ids";
import { createFlowRepo } from "./flows";
import { createRunRepo, type RunListQuery } from "./runs";

const statuses = ["succeeded", "failed", "running", "cancelled", "queued", "succeeded", "waiting"] as const;
const channels = ["manual", "webhook", "email", "cron", "api", "subflow"] as const;
const base = Date.parse("2026-03-01T00:00:00Z");

interface Seeded {
  id: string;
  flowId: string;
  status: string;
  channel: string;
  createdAt: number;
  durationMs: number | null;
  payload: string;
  errorMessage: string | null;
  stepError: string | null;
}

let db: ReturnType<typeof tempDatabase>;
let repo: ReturnType<typeof createRunRepo>;
let seeded: Seeded[];
let flowA: string;
let flowB: string;

/** 5 000 runs over two flows with every status and channel, some with errors worth searching for. */
function seed(flowIds: string[]): Seeded[] {
  const insertRun = db.sql.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, errorMessage, createdAt, startedAt, endedAt, durationMs)
     VALUES (?, ?, 1, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
  );
  const insertStep = db.sql.prepare(
    `INSERT INTO "Step" (id, runId, stepId, nodeId, visit, attempt, status, errorCode, errorMessage, truncated, startedAt, endedAt, durationMs)
     VALUES (?, ?, 'http#1', 'http', 1, 1, 'failed', 'http_failed', ?, 0, ?, ?, 5)`,
  );
  const out: Seeded[] = [];
  db.sql.transaction(() => {
    for (let i = 0; i < 5000; i++) {
      const status = statuses[i % statuses.length]!;
      const finished = ["succeeded", "failed", "cancelled"].includes(status);
      const createdAt = base + i * 60_000;
      const payload = JSON.stringify({
        order: i,
        customer: i % 100 === 0 ? "ACME Corp" : `cust-${i}`,
        note: i % 333 === 0 ? "100% off_sale" : "",
      });
      const errorMessage =
        status === "failed"
          ? i % 50 === 1
            ? "Timeout talking to PAYMENTS"
            : "HTTP 500 from upstream"
          : null;
      const stepError = i % 250 === 3 ? "quota exceeded for tenant" : null;
      const r: Seeded = {
        id: newId(),
        flowId: flowIds[i % flowIds.length]!,
        status,
        channel: channels[i % channels.length]!,
        createdAt,
        durationMs: finished ? (i * 7919) % 10_000 : null,
        payload,
        errorMessage,
        stepError,
      };
      const at = sqlDate(createdAt);
      insertRun.run(
        r.id,
        r.flowId,
        status,
        r.channel,
        payload,
        at,
        errorMessage,
        at,
        at,
        finished ? sqlDate(createdAt + r.durationMs!) : null,
        r.durationMs,
      );
      if (stepError) insertStep.run(newId(), r.id, stepError, at, at);
      out.push(r);
    }
  })();
  return out;
}

/** Lower-cased tokens split on everything but letters and digits, as FTS5's unicode61 does. */
const tokens = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The texts a run is found by: its error with its payload, and each step error, as separate documents. */
const searchDocs = (r: Seeded) =>
  [[r.errorMessage ?? "", r.payload].join(" "), r.stepError ?? ""].map(tokens);

/** A typed word matches where its tokens appear in a row, the last one as a prefix. */
function hasPhrasePrefix(doc: string[], word: string): boolean {
  const want = tokens(word);
  return doc.some((_, i) =>
    want.every((t, j) => (j === want.length - 1 ? doc[i + j]?.startsWith(t) : doc[i + j] === t)),
  );
}

/** What the repository should answer, computed independently over the seed. */
function expected(q: RunListQuery): Seeded[] {
  const list = (v?: string | string[]) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);
  const st = list(q.status);
  const ch = list(q.channel);
  const words = q.search?.split(/\s+/).filter((w) => /[a-z0-9]/i.test(w));
  const rows = seeded.filter(
    (r) =>
      (!q.flowId || r.flowId === q.flowId) &&
      (!st || st.includes(r.status)) &&
      (!ch || ch.includes(r.channel)) &&
      (q.from === undefined || r.createdAt >= new Date(q.from).getTime()) &&
      (q.to === undefined || r.createdAt < new Date(q.to).getTime()) &&
      (!words || searchDocs(r).some((doc) => words.every((w) => hasPhrasePrefix(doc, w)))),
  );
  if (q.sort === "oldest") return rows;
  if (q.sort === "duration") {
    return [...rows].sort((a, b) => {
      if (a.durationMs === b.durationMs) return a.id < b.id ? 1 : -1;
      if (a.durationMs === null) return 1;
      if (b.durationMs === null) return -1;
      return b.durationMs - a.durationMs;
    });
  }
  return [...rows].reverse();
}

async function allPages(q: RunListQuery): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await repo.list({ ...q, cursor });
    ids.push(...page.runs.map((r) => r.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
  throw new Error("pagination did not end");
}

beforeAll(async () => {
  db = tempDatabase();
  const flows = createFlowRepo(db.prisma);
  flowA = (await flows.create({ name: "A", definition: { nodes: [] } })).id;
  flowB = (await flows.create({ name: "B", definition: { nodes: [] } })).id;
  repo = createRunRepo(db.prisma, db.sql);
  seeded = seed([flowA, flowB]);
}, 30_000);

afterAll(async () => {
  await db.cleanup();
});

describe("run list over 5 000 seeded runs", () => {
  const cases: [string, () => RunListQuery][] = [
    ["one flow", () => ({ flowId: flowA })],
    ["one status", () => ({ status: "failed" })],
    ["several statuses and a channel", () => ({ status: ["running", "queued"], channel: "webhook" })],
    ["a time range", () => ({ from: new Date(base + 1000 * 60_000), to: new Date(base + 1100 * 60_000) })],
    [
      "an ISO time range on one flow",
      () => ({ flowId: flowB, from: new Date(base + 4000 * 60_000).toISOString() }),
    ],
    ["a search in error messages, ignoring case", () => ({ search: "payments" })],
    ["a search in the payload", () => ({ search: "ACME corp" })],
    ["a search in step errors", () => ({ search: "quota exceeded" })],
    ["a search with punctuation around the words", () => ({ search: "100% off_" })],
    ["a search for a word prefix", () => ({ search: "paym" })],
    [
      "everything at once",
      () => ({ flowId: flowA, status: "failed", channel: ["manual", "email", "api"], search: "http 500" }),
    ],
  ];

  for (const [name, q] of cases) {
    it(`returns exactly the matching runs for ${name}, newest first, across pages`, async () => {
      const want = expected(q()).map((r) => r.id);
      expect(want.length).toBeGreaterThan(0);
      expect(await allPages({ ...q(), limit: 97 })).toEqual(want);
    });
  }

  it("pages oldest first and by duration (longest first, unfinished last) without gaps or repeats", async () => {
    for (const sort of ["oldest", "duration"] as const) {
      const ids = await allPages({ sort, limit: 113 });
      expect(ids).toEqual(expected({ sort }).map((r) => r.id));
    }
    const failed = await allPages({ sort: "duration", status: "failed", limit: 50 });
    expect(failed).toEqual(expected({ sort: "duration", status: "failed" }).map((r) => r.id));
  });

  it("counts runs per status under the other filters, and the live ones", async () => {
    const c = await repo.counts({ flowId: flowA, channel: "webhook" });
    const rows = seeded.filter((r) => r.flowId === flowA && r.channel === "webhook");
    expect(c.total).toBe(rows.length);
    for (const s of new Set(statuses))
      expect(c.byStatus[s] ?? 0).toBe(rows.filter((r) => r.status === s).length);
    expect(c.live).toBe(rows.filter((r) => ["queued", "running", "waiting"].includes(r.status)).length);
  });

  it("keeps a cursor stable while new runs arrive", async () => {
    const first = await repo.list({ limit: 10 });
    const extra = newId();
    db.sql
      .prepare(
        `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, createdAt) VALUES (?, ?, 1, 'queued', 'api', '{}', ?, ?)`,
      )
      .run(extra, flowA, sqlDate(), sqlDate());
    const second = await repo.list({ limit: 10, cursor: first.nextCursor! });
    expect(second.runs.map((r) => r.id)).toEqual(
      expected({})
        .slice(10, 20)
        .map((r) => r.id),
    );
    expect((await repo.list({ limit: 1 })).runs[0]!.id).toBe(extra);
    db.sql.prepare(`DELETE FROM "Run" WHERE id = ?`).run(extra);
  });

  it("pages a search oldest first and longest first without gaps or repeats", async () => {
    for (const sort of ["oldest", "duration"] as const) {
      const q = { search: "http", channel: ["email", "manual"], sort };
      expect(await allPages({ ...q, limit: 41 })).toEqual(expected(q).map((r) => r.id));
    }
  });

  it("reads a bounded number of matches per search page, and the short pages still add up to every match", async () => {
    const capped = createRunRepo(db.prisma, db.sql, { searchScan: 40 });
    for (const sort of ["newest", "oldest"] as const) {
      const q = { search: "http", status: "failed", channel: "email", sort };
      const ids: string[] = [];
      let cursor: string | undefined;
      let shortPages = 0;
      for (let pages = 0; pages < 1000; pages++) {
        const page = await capped.list({ ...q, limit: 10, cursor });
        ids.push(...page.runs.map((r) => r.id));
        if (page.runs.length < 10 && page.nextCursor) shortPages++;
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(shortPages).toBeGreaterThan(0);
      const want = expected(q).map((r) => r.id);
      expect(ids).toEqual(want);
    }
  });

  it("refuses a search's cursor on a list without one, and the other way round", async () => {
    const searched = await repo.list({ search: "http", limit: 5 });
    const plain = await repo.list({ limit: 5 });
    await expect(repo.list({ cursor: searched.nextCursor! })).rejects.toThrow(
      /belongs to a list with a search; start again from the first page/,
    );
    await expect(repo.list({ search: "http", cursor: plain.nextCursor! })).rejects.toThrow(
      /belongs to a list without a search/,
    );
  });

  it("refuses a malformed duration cursor", async () => {
    await expect(repo.list({ sort: "duration", cursor: "not-a-cursor" })).rejects.toThrow(
      'invalid cursor "not-a-cursor"',
    );
  });

  it("returns a trace with one summary per attempt and no step payloads", async () => {
    const withStep = seeded.find((r) => r.stepError)!;
    const trace = await repo.trace(withStep.id);
    expect(trace?.steps).toHaveLength(1);
    expect(trace?.steps[0]).toMatchObject({
      nodeId: "http",
      status: "failed",
      errorMessage: "quota exceeded for tenant",
    });
    expect(trace?.steps[0]).not.toHaveProperty("input");
    expect(trace?.triggerPayload).toBe(withStep.payload);
    const full = await repo.step(withStep.id, trace!.steps[0]!.id);
    expect(full?.errorCode).toBe("http_failed");
    expect(await repo.step(seeded[0]!.id, trace!.steps[0]!.id)).toBeNull();
    expect(await repo.trace("missing")).toBeNull();
  });
});
