import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  countIds,
  declareDurable,
  deleteQueue,
  publishStream,
  queueState,
} from "../../__tests__/amqp-stream";
import { allowLoopback, brokerCredential, triggerFlow, until } from "../../__tests__/broker-host";
import { parseConfig } from "../../config";
import { createHost } from "../../host";
import { createLogger } from "../../logger";

/*
 * The Switchyard side of "no message lost": the host runs in a child process (`switchyard worker`)
 * consuming a durable queue on the machine's RabbitMQ, and is SIGKILLed mid-stream. Messages it had
 * admitted but not yet acknowledged come back to the restarted host, which recognises their ids.
 */

const bin = fileURLToPath(new URL("../../../bin/switchyard.mjs", import.meta.url));
const N = 500;
const URL_ = "amqp://guest:guest@127.0.0.1:5672";

function spawnWorker(dir: string): { child: ChildProcess; exited: Promise<void> } {
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

describe("trigger.amqp when the host is SIGKILLed mid-stream", () => {
  it("loses no message and starts no second run for a message it had admitted", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sy-amqp-kill-"));
    const queue = `sy-test-host-kill-${randomUUID()}`;
    let second: ReturnType<typeof spawnWorker> | undefined;
    try {
      await declareDurable(URL_, queue);
      const config = parseConfig({ SWITCHYARD_DATA_DIR: dir, LOG_LEVEL: "silent" });
      const setup = await createHost(config, createLogger("silent"), { seed: false });
      await allowLoopback(setup);
      const credentialId = await brokerCredential(setup, "amqp", {
        port: "5672",
        vhost: "/",
        user: "guest",
        password: "guest",
      });
      const { id: flowId } = await setup.flows.create({
        name: "Orders",
        definition: triggerFlow("trigger.amqp", { credentialId, queue, prefetch: 20 }),
      });
      await setup.control.setActive(flowId, true);
      await setup.close();

      const db = new Database(path.join(dir, "switchyard.db"), { readonly: true });
      const payloads = () =>
        (
          db.prepare(`SELECT triggerPayload FROM "Run" WHERE flowId = ?`).all(flowId) as {
            triggerPayload: string;
          }[]
        ).map((r) => JSON.parse(r.triggerPayload) as Record<string, unknown>);

      const first = spawnWorker(dir);
      await until("the first host's consumer", async () => (await queueState(URL_, queue)).consumers === 1);
      await publishStream({ url: URL_, queue, count: N });
      await until("100 runs", () => payloads().length >= 100);
      first.child.kill("SIGKILL");
      await first.exited;
      const runsAtKill = payloads().length;

      second = spawnWorker(dir);
      const state = async () => ({
        ids: countIds(payloads()).size,
        runs: payloads().length,
        queue: await queueState(URL_, queue).catch((e: Error) => e.message),
      });
      await until("a run for every message", () => countIds(payloads()).size === N, 300_000, state);
      await until(
        "the queue to drain",
        async () => (await queueState(URL_, queue)).messages === 0,
        60_000,
        state,
      );
      await until(
        "every run to finish",
        () =>
          (
            db.prepare(`SELECT COUNT(*) n FROM "Run" WHERE status IN ('queued', 'running')`).get() as {
              n: number;
            }
          ).n === 0,
        120_000,
      );

      const counts = countIds(payloads());
      expect([...counts.keys()].sort()).toEqual(Array.from({ length: N }, (_, i) => `m-${i}`).sort());
      expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
      expect(payloads()).toHaveLength(N);
      expect(runsAtKill).toBeGreaterThanOrEqual(100);
      expect(runsAtKill).toBeLessThan(N);
      expect(db.prepare(`SELECT DISTINCT status FROM "Run" WHERE flowId = ?`).all(flowId)).toEqual([
        { status: "succeeded" },
      ]);
      const redelivered = payloads().filter((p) => p.redelivered).length;
      console.log(`host kill: runs at kill ${runsAtKill}/${N}, runs of redelivered messages ${redelivered}`);
      db.close();
    } finally {
      if (second) {
        second.child.kill("SIGTERM");
        await second.exited;
      }
      rmSync(dir, { recursive: true, force: true });
      await deleteQueue(URL_, queue).catch(() => {});
    }
  }, 600_000);
});
