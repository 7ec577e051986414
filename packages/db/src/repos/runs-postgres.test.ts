import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, type TestDatabase } from "../__tests__/databases";
import type { Prisma } from "../generated/prisma/client";
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

// The SQLite list (indexes, FTS5 search, counters) has its own suite in runs.test.ts; this one holds the
// PostgreSQL list, which searches by case-insensitive substring.
describe.each(databases.filter(([kind]) => kind === "postgres"))("run repository on %s", (_kind, open) => {
  let db: TestDatabase;
  let repo: ReturnType<typeof createRunRepo>;
  let seeded: Seeded[];
  let flowA: string;
  let flowB: string;

  /** 5 000 runs over two flows with every status and channel, some with errors worth searching for. */
  async function seed(flowIds: string[]): Promise<Seeded[]> {
    const out: Seeded[] = [];
    const runs: Prisma.RunCreateManyInput[] = [];
    const steps: Prisma.StepCreateManyInput[] = [];
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
      const at = new Date(createdAt);
      runs.push({
        id: r.id,
        flowId: r.flowId,
        flowVersion: 1,
        status,
        channel: r.channel,
        triggerPayload: payload,
        availableAt: at,
        attempts: 1,
        errorMessage,
        createdAt: at,
        startedAt: at,
        endedAt: finished ? new Date(createdAt + r.durationMs!) : null,
        durationMs: r.durationMs,
      });
      if (stepError)
        steps.push({
          id: newId(),
          runId: r.id,
          stepId: "http#1",
          nodeId: "http",
          status: "failed",
          errorCode: "http_failed",
          errorMessage: stepError,
          startedAt: at,
          endedAt: at,
          durationMs: 5,
        });
      out.push(r);
    }
    for (let i = 0; i < runs.length; i += 1000)
      await db.prisma.run.createMany({ data: runs.slice(i, i + 1000) });
    await db.prisma.step.createMany({ data: steps });
    return out;
  }

  /** What the repository should answer, computed independently over the seed. */
  function expected(q: RunListQuery): Seeded[] {
    const list = (v?: string | string[]) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);
    const st = list(q.status);
    const ch = list(q.channel);
    const needle = q.search?.toLowerCase();
    const rows = seeded.filter(
      (r) =>
        (!q.flowId || r.flowId === q.flowId) &&
        (!st || st.includes(r.status)) &&
        (!ch || ch.includes(r.channel)) &&
        (q.from === undefined || r.createdAt >= new Date(q.from).getTime()) &&
        (q.to === undefined || r.createdAt < new Date(q.to).getTime()) &&
        (!needle || [r.errorMessage, r.payload, r.stepError].some((t) => t?.toLowerCase().includes(needle))),
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
    db = await open();
    const flows = createFlowRepo(db.prisma);
    flowA = (await flows.create({ name: "A", definition: { nodes: [] } })).id;
    flowB = (await flows.create({ name: "B", definition: { nodes: [] } })).id;
    repo = createRunRepo(db.prisma, "postgres");
    seeded = await seed([flowA, flowB]);
  }, 60_000);

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
      ["a search with LIKE wildcards taken literally", () => ({ search: "100% off_" })],
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
      await db.prisma.run.create({
        data: {
          id: extra,
          flowId: flowA,
          flowVersion: 1,
          status: "queued",
          channel: "api",
          triggerPayload: "{}",
        },
      });
      const second = await repo.list({ limit: 10, cursor: first.nextCursor! });
      expect(second.runs.map((r) => r.id)).toEqual(
        expected({})
          .slice(10, 20)
          .map((r) => r.id),
      );
      expect((await repo.list({ limit: 1 })).runs[0]!.id).toBe(extra);
      await db.prisma.run.delete({ where: { id: extra } });
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
});
