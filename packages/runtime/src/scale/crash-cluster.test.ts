// Issue #23, item 7: one `switchyard web` and two `switchyard worker` OS processes on PostgreSQL + Redis,
// 2 000 webhook runs, one worker killed with SIGKILL in the middle. Afterwards every acknowledged run has
// finished exactly once, none is stuck, and no completed step ran twice.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { createHost } from "../host";
import { createLogger } from "../logger";
import { createDeployment } from "./__tests__/cluster";

const bin = fileURLToPath(new URL("../../bin/switchyard.mjs", import.meta.url));
const RUNS = 2000;
const CONCURRENCY = 8;

/** Every call a step made, by `<step>/<runId>`: the side effect that must not repeat once completed. */
const hits = new Map<string, number>();
let counter: Server;
let counterUrl: string;
let d: Awaited<ReturnType<typeof createDeployment>>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  counter = createServer((req, res) => {
    const key = req.url ?? "";
    hits.set(key, (hits.get(key) ?? 0) + 1);
    setTimeout(() => res.end('{"ok":true}'), 5);
  });
  await new Promise<void>((r) => counter.listen(0, "127.0.0.1", r));
  counterUrl = `http://127.0.0.1:${(counter.address() as { port: number }).port}`;
  d = await createDeployment({
    SWITCHYARD_WORKER_LOCK_MS: "3000",
    SWITCHYARD_WORKER_CONCURRENCY: String(CONCURRENCY),
  });
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await new Promise((r) => counter.close(r));
  await d?.drop();
}, 60_000);

function spawnRole(role: "web" | "worker") {
  const args = role === "web" ? [bin, "web", "--no-ui"] : [bin, "worker"];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...d.env, PORT: "0", LOG_LEVEL: "error" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (b) => {
    err += b;
  });
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (b) => {
      out += b;
      const m = /listening on [\d.]+:(\d+)|executing up to/.exec(out);
      if (m) resolve(m[1] ?? "");
    });
    child.once("exit", (code) =>
      reject(new Error(`switchyard ${role} exited (${code}) before it was ready: ${err}`)),
    );
  });
  return { child, ready, exited: new Promise<void>((r) => child.once("exit", () => r())) };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 180_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("web + two workers as OS processes on PostgreSQL + Redis", () => {
  it("finishes every acknowledged run exactly once after a worker is SIGKILLed mid-load, none stuck, no completed step run twice", async () => {
    // The flow: webhook (async) → two HTTP calls that count themselves. HTTP steps are impure, so each is
    // committed before the next starts: after the kill only a step in flight may run again.
    const setup = await createHost(parseConfig(d.env), createLogger("silent"), { seed: false, role: "web" });
    await setup.settings.set("http.allowHosts", ["127.0.0.1"]);
    const step = (id: string) => ({
      id,
      type: "http.request",
      config: { method: "POST", url: `="${counterUrl}/${id}/" & run.id` },
    });
    const { id: flowId } = await setup.flows.create({
      name: "Load",
      definition: {
        nodes: [{ id: "hook", type: "trigger.webhook", config: { path: "load" } }, step("a"), step("b")],
        edges: [
          { from: { node: "hook", port: "main" }, to: { node: "a", port: "main" } },
          { from: { node: "a", port: "main" }, to: { node: "b", port: "main" } },
        ],
      },
    });
    await setup.flows.setActive(flowId, true);
    await setup.close();

    const web = spawnRole("web");
    const victim = spawnRole("worker");
    const survivor = spawnRole("worker");
    const port = await web.ready;
    await Promise.all([victim.ready, survivor.ready]);

    const acknowledged: string[] = [];
    let sent = 0;
    const send = async () => {
      while (sent < RUNS) {
        sent++;
        const res = await fetch(`http://127.0.0.1:${port}/hooks/load`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        });
        expect(res.status).toBe(202);
        acknowledged.push(((await res.json()) as { runId: string }).runId);
      }
    };
    const sending = Promise.all(Array.from({ length: 32 }, send));
    // A failed send ends the wait at once instead of after the deadline.
    await Promise.race([until("a quarter of the steps to have run", () => hits.size >= RUNS / 2), sending]);
    victim.child.kill("SIGKILL");
    await victim.exited;
    await sending;
    expect(acknowledged).toHaveLength(RUNS);

    const db = new pg.Client({ connectionString: d.dbUrl });
    await db.connect();
    try {
      const unfinished = async () =>
        Number(
          (await db.query(`SELECT count(*) AS n FROM "Run" WHERE status IN ('queued', 'running', 'waiting')`))
            .rows[0].n,
        );
      await until("every run to finish", async () => (await unfinished()) === 0);

      const runs = await db.query<{ id: string; status: string }>(`SELECT id, status FROM "Run"`);
      expect(runs.rows.map((r) => r.id).sort()).toEqual([...acknowledged].sort());
      expect(runs.rows.filter((r) => r.status !== "succeeded")).toEqual([]);
      // The kill hit runs in flight: some were taken over by the surviving worker (a second take).
      const resumed = await db.query(`SELECT count(*) AS n FROM "Run" WHERE attempts > 1`);
      expect(Number(resumed.rows[0].n)).toBeGreaterThan(0);

      // Exactly one succeeded checkpoint per step of every run: a completed step never ran again.
      const steps = await db.query<{ runId: string; stepId: string; n: string }>(
        `SELECT "runId", "stepId", count(*) AS n FROM "Step" WHERE status = 'succeeded' GROUP BY "runId", "stepId"`,
      );
      expect(steps.rows.filter((r) => r.n !== "1")).toEqual([]);
      expect(steps.rows).toHaveLength(RUNS * 3);
    } finally {
      await db.end();
    }
    // The side effects: every step of every run happened; only steps in flight at the kill happened twice.
    for (const id of acknowledged)
      for (const s of ["a", "b"]) expect(hits.get(`/${s}/${id}`) ?? 0).toBeGreaterThan(0);
    const twice = [...hits.values()].filter((n) => n > 1);
    expect(Math.max(...hits.values())).toBeLessThanOrEqual(2);
    expect(twice.length).toBeLessThanOrEqual(CONCURRENCY);

    web.child.kill("SIGTERM");
    survivor.child.kill("SIGTERM");
    await Promise.all([web.exited, survivor.exited]);
  }, 300_000);
});
