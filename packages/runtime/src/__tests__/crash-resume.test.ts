import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { createHost } from "../host";
import { createLogger } from "../logger";

const bin = fileURLToPath(new URL("../../bin/switchyard.mjs", import.meta.url));
const STEPS = 20;

/** Counts how often each step really ran: the side effect that must not repeat. */
let hits: Map<string, number>;
let server: Server;
let counterUrl: string;
beforeAll(async () => {
  hits = new Map();
  server = createServer((req, res) => {
    const key = req.url ?? "";
    hits.set(key, (hits.get(key) ?? 0) + 1);
    setTimeout(() => res.end('{"ok":true}'), 120); // a slow step
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  counterUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

function chainFlow() {
  const nodes: Record<string, unknown>[] = [{ id: "start", type: "trigger.manual", config: {} }];
  const edges: Record<string, unknown>[] = [];
  let prev = "start";
  for (let i = 1; i <= STEPS; i++) {
    const id = `s${i}`;
    nodes.push({ id, type: "http.request", config: { method: "POST", url: `${counterUrl}/step/${i}` } });
    edges.push({ from: { node: prev, port: "main" }, to: { node: id, port: "main" } });
    prev = id;
  }
  return { nodes, edges };
}

function spawnWorker(dir: string) {
  const child = spawn(process.execPath, [bin, "worker"], {
    env: {
      ...process.env,
      SWITCHYARD_DATA_DIR: dir,
      PORT: "0",
      SWITCHYARD_SMTP_PORT: "0",
      LOG_LEVEL: "silent",
    },
    stdio: "ignore",
  });
  return { child, exited: new Promise<void>((r) => child.once("exit", () => r())) };
}

const until = async (what: string, check: () => boolean, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("crash resume", () => {
  it("finishes a run after SIGKILL mid-run, executing each step once except at most the one in flight", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sy-crash-"));
    try {
      const config = parseConfig({ SWITCHYARD_DATA_DIR: dir, LOG_LEVEL: "silent" });
      const setup = await createHost(config, createLogger("silent"), { seed: false });
      await setup.settings.set("http.allowHosts", ["127.0.0.1"]);
      const { id: flowId } = await setup.flows.create({ name: "Twenty slow steps", definition: chainFlow() });
      const { runId } = await setup.control.startRun(flowId);
      await setup.close();

      const first = spawnWorker(dir);
      await until("a few steps", () => hits.size >= 6);
      first.child.kill("SIGKILL");
      await first.exited;
      const doneBeforeCrash = hits.size;
      expect(doneBeforeCrash).toBeLessThan(STEPS);

      const second = spawnWorker(dir);
      const db = new Database(path.join(dir, "switchyard.db"), { readonly: true });
      const status = () =>
        (db.prepare(`SELECT status FROM "Run" WHERE id = ?`).get(runId) as { status: string }).status;
      await until("the run to finish", () => ["succeeded", "failed"].includes(status()));
      expect(status()).toBe("succeeded");
      expect(db.prepare(`SELECT COUNT(*) n FROM "Run" WHERE status IN ('running', 'queued')`).get()).toEqual({
        n: 0,
      });
      const steps = db
        .prepare(`SELECT DISTINCT nodeId FROM "Step" WHERE runId = ? AND status = 'succeeded'`)
        .all(runId);
      expect(steps).toHaveLength(STEPS + 1);
      db.close();
      second.child.kill("SIGTERM");
      await second.exited;

      const counts = [...Array(STEPS)].map((_, i) => hits.get(`/step/${i + 1}`) ?? 0);
      const repeated = counts.filter((n) => n > 1);
      expect(counts.every((n) => n >= 1)).toBe(true);
      expect(repeated.length).toBeLessThanOrEqual(1);
      expect(Math.max(...counts)).toBeLessThanOrEqual(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
