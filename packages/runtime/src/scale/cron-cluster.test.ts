// Cron on scale-out: every web process schedules every active cron trigger, and node-cron's RunCoordinator
// (on Redis) lets exactly one of them fire each slot, catch-up after downtime included.
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { createHost } from "../host";
import { createLogger } from "../logger";
import { createDeployment, startRole, testRedisUrl } from "./__tests__/cluster";
import { createRedisRunCoordinator } from "./cron-coordinator";

type Deployment = Awaited<ReturnType<typeof createDeployment>>;
let d: Deployment;
let db: pg.Client;
beforeAll(async () => {
  d = await createDeployment();
  db = new pg.Client({ connectionString: d.dbUrl });
  await db.connect();
}, 60_000);
afterAll(async () => {
  await db?.end();
  await d?.drop();
}, 60_000);

const cronFlow = (missed: "skip" | "run_once") => ({
  nodes: [
    { id: "tick", type: "trigger.cron", config: { expression: "* * * * * *", overlap: "allow", missed } },
  ],
  edges: [],
});

/** scheduledAt and missed of every cron run of the flow. */
async function slots(flowId: string) {
  const { rows } = await db.query<{ p: string }>(
    `SELECT "triggerPayload" AS p FROM "Run" WHERE "flowId" = $1`,
    [flowId],
  );
  return rows.map((r) => JSON.parse(r.p) as { scheduledAt: string; missed: boolean });
}

async function until(what: string, check: () => Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("cron across processes", () => {
  it("lets one process claim a slot key and refuses it to every other", async () => {
    const a = new Redis(testRedisUrl);
    const b = new Redis(testRedisUrl);
    try {
      const key = `flow:node:${new Date().toISOString()}`;
      const answers = await Promise.all([
        createRedisRunCoordinator(a, "a", d.prefix).shouldRun(key, 30_000),
        createRedisRunCoordinator(b, "b", d.prefix).shouldRun(key, 30_000),
      ]);
      expect(answers.sort()).toEqual([false, true]);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  it("fires each slot of an every-second schedule once with two web processes", async () => {
    const [webA, webB, worker] = [
      await startRole(d.env, "web"),
      await startRole(d.env, "web"),
      await startRole(d.env, "worker"),
    ];
    try {
      const { id } = await webA.host.flows.create({ name: "every second", definition: cronFlow("skip") });
      await webA.host.control.setActive(id, true);
      await until("four slots", async () => (await slots(id)).length >= 4);
      await webA.host.control.setActive(id, false);
      const fired = (await slots(id)).map((s) => s.scheduledAt);
      expect(new Set(fired).size).toBe(fired.length);
    } finally {
      for (const r of [webA, webB, worker]) await r.close();
    }
  }, 60_000);

  it("serves a webhook activated through one web process from the other one too, and stops serving it when deactivated", async () => {
    const [webA, webB] = [await startRole(d.env, "web"), await startRole(d.env, "web")];
    try {
      const { id } = await webA.host.flows.create({
        name: "hook",
        definition: { nodes: [{ id: "hook", type: "trigger.webhook", config: { path: "both" } }], edges: [] },
      });
      const post = () =>
        fetch(`${webB.url}/hooks/both`, {
          method: "POST",
          body: "{}",
          headers: { "content-type": "application/json" },
        });
      expect((await post()).status).toBe(404);
      await webA.host.control.setActive(id, true);
      await until("web B to bind the hook", async () => (await post()).status === 202);
      await webA.host.control.setActive(id, false);
      await until("web B to unbind the hook", async () => (await post()).status === 404);
    } finally {
      for (const r of [webA, webB]) await r.close();
    }
  }, 60_000);

  it("runs a slot missed during downtime once when two web processes start at the same time", async () => {
    const setup = await createHost(parseConfig(d.env), createLogger("silent"), { seed: false, role: "web" });
    const { id } = await setup.flows.create({ name: "catch up", definition: cronFlow("run_once") });
    await setup.flows.setActive(id, true);
    await setup.db.prisma.triggerState.create({
      data: {
        id: `${id}:tick`,
        flowId: id,
        nodeId: "tick",
        kind: "cron",
        lastFireAt: new Date(Date.now() - 3_600_000),
      },
    });
    await setup.close();

    const roles = await Promise.all([
      startRole(d.env, "web"),
      startRole(d.env, "web"),
      startRole(d.env, "worker"),
    ]);
    try {
      // A regular slot after the catch-up means both processes have already decided about the missed one.
      await until("the catch-up and a regular slot", async () => {
        const s = await slots(id);
        return s.some((x) => x.missed) && s.some((x) => !x.missed);
      });
      await roles[0]!.host.control.setActive(id, false);
      expect((await slots(id)).filter((s) => s.missed)).toHaveLength(1);
    } finally {
      for (const r of roles) await r.close();
    }
  }, 60_000);
});
