import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { createHost } from "../host";
import { createLogger } from "../logger";

const bin = fileURLToPath(new URL("../../bin/switchyard.mjs", import.meta.url));

function spawnWorker(dir: string) {
  const child = spawn(process.execPath, [bin, "worker"], {
    env: { ...process.env, SWITCHYARD_DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", SWITCHYARD_SMTP_PORT: "0", LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const port = new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening on [\d.]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", () => reject(new Error(`worker exited before listening: ${out}`)));
  });
  return { child, port, exited: new Promise<void>((r) => child.once("exit", () => r())) };
}

describe("acknowledged webhooks survive kill -9", () => {
  it("has a run row for every 2xx even when the process is killed under load, and every run finishes after restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sy-ack-"));
    try {
      const setup = await createHost(parseConfig({ SWITCHYARD_DATA_DIR: dir, LOG_LEVEL: "silent" }), createLogger("silent"), { seed: false });
      const flow = {
        nodes: [
          { id: "hook", type: "trigger.webhook", config: { path: "ingest", responseMode: "async" } },
          { id: "wait", type: "flow.wait", config: { mode: "delay", amount: 1, unit: "seconds" } },
        ],
        edges: [{ from: { node: "hook", port: "main" }, to: { node: "wait", port: "main" } }],
      };
      const { id } = await setup.flows.create({ name: "Ingest", definition: flow });
      await setup.control.setActive(id, true);
      await setup.close();

      const w = spawnWorker(dir);
      const url = `http://127.0.0.1:${await w.port}/hooks/ingest`;
      const acknowledged: string[] = [];
      let stop = false;
      const client = async (c: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ c, i }) });
            if (res.status === 202) acknowledged.push(((await res.json()) as { runId: string }).runId);
          } catch {
            return; // the server died mid-request: not acknowledged, nothing promised
          }
        }
      };
      const clients = Array.from({ length: 20 }, (_, c) => client(c));
      while (acknowledged.length < 300) await new Promise((r) => setTimeout(r, 5));
      w.child.kill("SIGKILL");
      stop = true;
      await Promise.all(clients);
      await w.exited;

      const db = new Database(path.join(dir, "switchyard.db"), { readonly: true });
      const has = db.prepare(`SELECT 1 FROM "Run" WHERE id = ?`);
      const missing = acknowledged.filter((runId) => !has.get(runId));
      expect(missing).toEqual([]);
      db.close();

      const again = spawnWorker(dir);
      await again.port;
      const check = new Database(path.join(dir, "switchyard.db"), { readonly: true });
      const open = () => (check.prepare(`SELECT COUNT(*) n FROM "Run" WHERE status NOT IN ('succeeded','failed','cancelled','timed_out')`).get() as { n: number }).n;
      const deadline = Date.now() + 60_000;
      while (open() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(open()).toBe(0);
      expect(check.prepare(`SELECT COUNT(*) n FROM "Run" WHERE status != 'succeeded'`).get()).toEqual({ n: 0 });
      check.close();
      again.child.kill("SIGTERM");
      await again.exited;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
