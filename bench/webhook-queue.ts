/**
 * `npx tsx bench/webhook.ts --queue [--seconds 10] [--rounds 1]`: scale-out throughput and latency. One
 * `switchyard web --no-ui` with one and with two `switchyard worker` processes on PostgreSQL + Redis
 * (127.0.0.1, fresh database and Redis prefix), against the single-process SQLite `switchyard worker`.
 *
 * W2 (sync): webhook → data.set → answer (the answer crosses Redis from the worker back to web).
 * W2a (async): the same flow answered 202 at admission; the run finishes on a worker afterwards.
 * Every acknowledged run must have finished (checked at the end of each target).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { createHost, createLogger, parseConfig } from "../packages/runtime/src/index";
import { root, startSwitchyard, stopper, type Target, w2, waitForLine } from "./webhook-targets";

const w2a = { ...w2, nodes: w2.nodes.map((n) => (n.id === "hook" ? { ...n, config: { path: "w2a" } } : n)) };

export async function benchQueue(o: { seconds: number; rounds: number }) {
  const adminUrl = process.env.SWITCHYARD_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432";
  const redisUrl = process.env.SWITCHYARD_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const work = mkdtempSync(path.join(os.tmpdir(), "sy-queue-bench-"));
  const dbName = `sy_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: `${adminUrl}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const env = {
    SWITCHYARD_DATA_DIR: path.join(work, "scale"),
    SWITCHYARD_DATABASE_URL: `${adminUrl}/${dbName}`,
    SWITCHYARD_REDIS_URL: redisUrl,
    SWITCHYARD_REDIS_PREFIX: dbName,
    SWITCHYARD_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    SWITCHYARD_SMTP_PORT: "0",
    LOG_LEVEL: "warn",
  };
  const sqliteDir = path.join(work, "sqlite");
  for (const e of [env, { SWITCHYARD_DATA_DIR: sqliteDir, SWITCHYARD_SMTP_PORT: "0" }]) {
    const host = await createHost(parseConfig(e), createLogger("silent"), { seed: false, role: "web" });
    for (const [name, def] of [
      ["W2", w2],
      ["W2a", w2a],
    ] as const) {
      const { id } = await host.flows.create({ name, definition: def });
      await host.flows.setActive(id, true);
    }
    await host.close();
  }
  execFileSync(process.execPath, [path.join(root, "packages/runtime/scripts/build-dist.mjs")], {
    stdio: "inherit",
  });
  const bin = path.join(root, "packages/runtime/bin/switchyard.mjs");
  const spawnRole = (args: string[]) =>
    spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env, PORT: "0", HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });

  const children: ChildProcess[] = [];
  const startWeb = async (): Promise<Target> => {
    const child = spawnRole(["web", "--no-ui"]);
    children.push(child);
    const m = await waitForLine(child, /listening on [\d.]+:(\d+)/, "switchyard web");
    return { name: "web", url: `http://127.0.0.1:${m[1]}`, pid: child.pid!, stop: stopper(child) };
  };
  const startWorker = async () => {
    const child = spawnRole(["worker"]);
    children.push(child);
    await waitForLine(child, /executing up to/, "switchyard worker");
    return stopper(child);
  };

  const drive = async (url: string) => {
    const r = await autocannon({
      url,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ n: 41 }),
      connections: 20,
      duration: o.seconds,
    });
    return {
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      bad: r.errors + r.timeouts + r.non2xx,
    };
  };
  const rows: string[] = [
    "| target | flow | req/s | p50 ms | p99 ms | errors |",
    "|---|---|---:|---:|---:|---:|",
  ];
  const measure = async (name: string, base: string) => {
    for (const flow of ["w2", "w2a"]) {
      for (let i = 0; i < o.rounds; i++) {
        const s = await drive(`${base}/hooks/${flow}`);
        rows.push(
          `| ${name} | ${flow === "w2" ? "W2 sync" : "W2a async"} | ${s.rps.toFixed(0)} | ${s.p50} | ${s.p99} | ${s.bad} |`,
        );
      }
    }
  };

  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, node ${process.version}, load ${os.loadavg()[0]!.toFixed(2)}; ` +
      `PostgreSQL and Redis on the same machine; ${o.rounds} round(s) × ${o.seconds} s, 20 connections`,
  );
  const single = await startSwitchyard(sqliteDir, { role: "worker" });
  await measure("SQLite, one process", single.url);
  await single.stop();

  const web = await startWeb();
  const workers = [await startWorker()];
  await measure("web + 1 worker", web.url);
  workers.push(await startWorker());
  await measure("web + 2 workers", web.url);

  const db = new pg.Client({ connectionString: env.SWITCHYARD_DATABASE_URL });
  await db.connect();
  const deadline = Date.now() + 120_000;
  let unfinished = -1;
  while (Date.now() < deadline) {
    unfinished = Number(
      (await db.query(`SELECT count(*) AS n FROM "Run" WHERE status IN ('queued','running','waiting')`))
        .rows[0].n,
    );
    if (unfinished === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const done = Number(
    (await db.query(`SELECT count(*) AS n FROM "Run" WHERE status = 'succeeded'`)).rows[0].n,
  );
  await db.end();
  for (const stop of workers) await stop();
  await web.stop();
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  console.log(rows.join("\n"));
  console.log(`\nscale-out runs succeeded: ${done}; unfinished after the load: ${unfinished}`);
  await admin.query(`DROP DATABASE "${dbName}" WITH (FORCE)`);
  await admin.end();
  rmSync(work, { recursive: true, force: true });
  if (unfinished !== 0) process.exitCode = 1;
}
