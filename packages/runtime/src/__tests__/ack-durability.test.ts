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
    env: {
      ...process.env,
      SWITCHYARD_DATA_DIR: dir,
      PORT: "0",
      HOST: "127.0.0.1",
      SWITCHYARD_SMTP_PORT: "0",
      LOG_LEVEL: "silent",
    },
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
    // Two kinds of acknowledgement: 202 for a queued async run, and 200 from a pure sync flow that ran inline
    // and was recorded finished, with its steps, before the answer.
    const dir = mkdtempSync(path.join(tmpdir(), "sy-ack-"));
    try {
      const setup = await createHost(
        parseConfig({ SWITCHYARD_DATA_DIR: dir, LOG_LEVEL: "silent" }),
        createLogger("silent"),
        { seed: false },
      );
      const flow = {
        nodes: [
          { id: "hook", type: "trigger.webhook", config: { path: "ingest", responseMode: "async" } },
          { id: "wait", type: "flow.wait", config: { mode: "delay", amount: 1, unit: "seconds" } },
        ],
        edges: [{ from: { node: "hook", port: "main" }, to: { node: "wait", port: "main" } }],
      };
      const { id } = await setup.flows.create({ name: "Ingest", definition: flow });
      await setup.control.setActive(id, true);
      const echo = {
        nodes: [
          { id: "hook", type: "trigger.webhook", config: { path: "echo", responseMode: "sync" } },
          {
            id: "set",
            type: "data.set",
            config: { fields: [{ name: "n", value: "=item.body.i + 1" }], keepOnlySet: true },
          },
          { id: "respond", type: "webhook.respond", config: { status: 200, body: "=item" } },
        ],
        edges: [
          { from: { node: "hook", port: "main" }, to: { node: "set", port: "main" } },
          { from: { node: "set", port: "main" }, to: { node: "respond", port: "main" } },
        ],
      };
      const created = await setup.flows.create({ name: "Echo", definition: echo });
      await setup.control.setActive(created.id, true);
      await setup.close();

      const w = spawnWorker(dir);
      const base = `http://127.0.0.1:${await w.port}/hooks`;
      const acknowledged: string[] = [];
      const answered: string[] = [];
      let stop = false;
      const client = async (c: number) => {
        const sync = c % 2 === 1;
        for (let i = 0; !stop; i++) {
          try {
            const res = await fetch(`${base}/${sync ? "echo" : "ingest"}`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ c, i }),
            });
            if (res.status === 202) acknowledged.push(((await res.json()) as { runId: string }).runId);
            if (res.status === 200 && ((await res.json()) as { n: number }).n === i + 1)
              answered.push(res.headers.get("x-switchyard-run-id")!);
          } catch {
            return; // the server died mid-request: not acknowledged, nothing promised
          }
        }
      };
      const clients = Array.from({ length: 20 }, (_, c) => client(c));
      while (acknowledged.length < 300 || answered.length < 300) await new Promise((r) => setTimeout(r, 5));
      w.child.kill("SIGKILL");
      stop = true;
      await Promise.all(clients);
      await w.exited;

      const db = new Database(path.join(dir, "switchyard.db"), { readonly: true });
      const has = db.prepare(`SELECT 1 FROM "Run" WHERE id = ?`);
      const missing = acknowledged.filter((runId) => !has.get(runId));
      expect(missing).toEqual([]);
      // Answered sync runs are already complete on disk, steps included, before any restart.
      const complete = db.prepare(
        `SELECT r.status, (SELECT COUNT(*) FROM "Step" s WHERE s.runId = r.id) AS steps FROM "Run" r WHERE r.id = ?`,
      );
      const incomplete = answered.filter((runId) => {
        const row = complete.get(runId) as { status: string; steps: number } | undefined;
        return row?.status !== "succeeded" || row.steps !== 3;
      });
      expect(incomplete).toEqual([]);
      db.close();

      const again = spawnWorker(dir);
      await again.port;
      const check = new Database(path.join(dir, "switchyard.db"), { readonly: true });
      const open = () =>
        (
          check
            .prepare(
              `SELECT COUNT(*) n FROM "Run" WHERE status NOT IN ('succeeded','failed','cancelled','timed_out')`,
            )
            .get() as { n: number }
        ).n;
      const deadline = Date.now() + 60_000;
      while (open() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(open()).toBe(0);
      expect(check.prepare(`SELECT COUNT(*) n FROM "Run" WHERE status != 'succeeded'`).get()).toEqual({
        n: 0,
      });
      check.close();
      again.child.kill("SIGTERM");
      await again.exited;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
