// The run statements the queue workers rely on, against a real PostgreSQL database.
import { newId } from "@switchyard/db";
import { tempPostgres } from "@switchyard/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgRuns } from "./pg-runs";

let db: Awaited<ReturnType<typeof tempPostgres>>;
let runs: ReturnType<typeof createPgRuns>;
let flowId: string;

beforeAll(async () => {
  db = await tempPostgres();
  runs = createPgRuns(db.pool);
  flowId = newId();
  await db.prisma.flow.create({ data: { id: flowId, name: "f" } });
}, 30_000);
afterAll(async () => {
  await db?.cleanup();
});

const run = (extra: Record<string, unknown> = {}) => ({
  id: newId(),
  flowId,
  flowVersion: 1,
  channel: "webhook" as const,
  payloadJson: '{"a":1}',
  ...extra,
});
const status = async (id: string) => (await db.prisma.run.findUnique({ where: { id } }))?.status;

describe("PostgreSQL run statements", () => {
  it("admits a batch in one commit and names the runs that still need a queue job", async () => {
    const batch = [run(), run(), run({ claimFor: { workerId: "subflow:p", leaseMs: 60_000 } })];
    const { admissions, toQueue } = await runs.admit(batch);
    expect(admissions.map((a) => a.id)).toEqual(batch.map((r) => r.id));
    expect(admissions[2]!.claimed).toMatchObject({ id: batch[2]!.id, attempts: 1, fresh: true });
    expect(toQueue.map((q) => q.id)).toEqual([batch[0]!.id, batch[1]!.id]);
    expect(await status(batch[0]!.id)).toBe("queued");
    expect(await status(batch[2]!.id)).toBe("running");
  });

  it("admits a repeated idempotency key once when two processes race with it", async () => {
    const key = { key: `${flowId}:k`, ttlMs: 60_000 };
    const twin = createPgRuns(db.pool);
    const [a, b] = await Promise.all([
      runs.admit([run({ idempotency: key })]),
      twin.admit([run({ idempotency: key })]),
    ]);
    const both = [a.admissions[0]!, b.admissions[0]!];
    expect(both.filter((x) => x.duplicate)).toHaveLength(1);
    expect(both[0]!.id).toBe(both[1]!.id);
  });

  it("lets the holder of a job take a queued run, and a stale job find nothing to do", async () => {
    const r = run();
    await runs.admit([r]);
    const taken = await runs.take(r.id, "w1", 30_000);
    expect(taken).toMatchObject({ id: r.id, attempts: 1, payloadJson: '{"a":1}' });
    expect(await runs.finish(r.id, "w1", { status: "succeeded" })).toBe(true);
    expect(await runs.take(r.id, "w2", 30_000)).toBeUndefined();
    expect(await status(r.id)).toBe("succeeded");
  });

  it("records the outcome only for the worker that holds the run, after another took it over", async () => {
    const r = run();
    await runs.admit([r]);
    await runs.take(r.id, "dead", 30_000);
    expect(await runs.take(r.id, "alive", 30_000)).toMatchObject({ attempts: 2 });
    expect(await runs.finish(r.id, "dead", { status: "failed" })).toBe(false);
    expect((await runs.heartbeat([r.id], "dead", 30_000)).size).toBe(0);
    expect(await runs.finishWithSteps(r.id, "alive", { status: "succeeded" }, () => undefined)).toBe(true);
    expect(await status(r.id)).toBe("succeeded");
  });

  it("cancels a queued run at once and reports a running, a finished and a missing one", async () => {
    const [q, r] = [run(), run()];
    await runs.admit([q, r]);
    await runs.take(r.id, "w", 30_000);
    expect(await runs.cancelUnclaimed(q.id)).toBe("cancelled");
    expect(await runs.cancelUnclaimed(r.id)).toBe("running");
    expect(await runs.cancelUnclaimed(q.id)).toBe("already_finished");
    expect(await runs.cancelUnclaimed("nope")).toBe("not_found");
  });

  it("parks a waiting run until its time: a job offered early is told it is not due", async () => {
    const r = run();
    await runs.admit([r]);
    await runs.take(r.id, "w", 30_000);
    const resumeAt = new Date(Date.now() + 60_000);
    expect(await runs.finish(r.id, "w", { status: "waiting", resumeAt })).toBe(true);
    expect(await runs.take(r.id, "w", 30_000)).toBe("not_due");
    const due = await runs.due(-1000, 100);
    expect(due.find((d) => d.id === r.id)?.delayMs).toBeGreaterThan(50_000);
  });
});
