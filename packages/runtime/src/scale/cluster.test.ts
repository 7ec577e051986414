// Scale-out in one test process: one `web` host and two `worker` hosts on a fresh PostgreSQL database and
// Redis prefix, talking only through them (as separate processes do). The multi-process SIGKILL test is
// in crash-cluster.test.ts.
import { defineNode, NodeError } from "@switchyard/nodes";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { waitForRun } from "../__tests__/test-host";
import type { RunProgressEvent } from "@switchyard/engine";
import { createDeployment, startRole } from "./__tests__/cluster";

/** A step that takes `ms` (or until cancelled) and counts where it ran: the capability the workers share. */
const ranOn = new Map<string, number>();
const slowNode = defineNode({
  type: "test.slow",
  typeVersion: 1,
  title: "Slow",
  description: "Takes a while (test only).",
  icon: "hourglass",
  example: { ms: 10 },
  category: "flow",
  ports: ["main"],
  config: z.object({ ms: z.number() }),
  async execute({ config, input, ctx }) {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, config.ms);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(t);
        reject(new NodeError("cancelled", "cancelled", { retryable: false }));
      });
    });
    return { items: input };
  },
});

type Deployment = Awaited<ReturnType<typeof createDeployment>>;
type Role = Awaited<ReturnType<typeof startRole>>;
let d: Deployment;
let web: Role;
let workers: Role[];

beforeAll(async () => {
  // Two runs per worker at a time: a burst cannot all land on one worker, so both take part.
  d = await createDeployment({ SWITCHYARD_WORKER_LOCK_MS: "2000", SWITCHYARD_WORKER_CONCURRENCY: "2" });
  const ext = { nodeTypes: [slowNode] };
  web = await startRole(d.env, "web", ext);
  workers = [await startRole(d.env, "worker", ext), await startRole(d.env, "worker", ext)];
  for (const [i, w] of workers.entries())
    w.host.services.events.on("run.event", () => ranOn.set(`w${i}`, (ranOn.get(`w${i}`) ?? 0) + 1));
}, 60_000);

afterAll(async () => {
  for (const r of [web, ...(workers ?? [])]) await r?.close();
  await d?.drop();
}, 60_000);

const hook = (path: string, responseMode: "sync" | "async", nodes: Record<string, unknown>[]) => {
  const all = [{ id: "hook", type: "trigger.webhook", config: { path, responseMode } }, ...nodes];
  return {
    nodes: all,
    edges: all.slice(1).map((n, i) => ({
      from: { node: all[i]!.id, port: "main" },
      to: { node: n.id, port: "main" },
    })),
  };
};

async function activate(definition: unknown): Promise<string> {
  const { id } = await web.host.flows.create({ name: "f", definition });
  await web.host.control.setActive(id, true);
  return id;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${web.url}/hooks/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("one web and two worker processes on PostgreSQL + Redis", () => {
  it("answers a sync webhook with what a worker computed, and records the run and its steps", async () => {
    await activate(
      hook("sync", "sync", [
        {
          id: "set",
          type: "data.set",
          config: { fields: [{ name: "v", value: "=item.body.n * 2" }], keepOnlySet: true },
        },
        { id: "respond", type: "webhook.respond", config: { status: 201, body: "=item" } },
      ]),
    );
    const res = await post("sync", { n: 21 });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ v: 42 });
    const run = await waitForRun(web.host, res.headers.get("x-switchyard-run-id")!);
    expect(run.status).toBe("succeeded");
    expect(run.steps.map((s) => s.nodeId)).toEqual(["hook", "set", "respond"]);
    expect(web.host.services.worker.inFlight()).toBe(0);
  });

  it("runs async webhooks on the workers and streams their steps to the web process's live view", async () => {
    await activate(hook("async", "async", [{ id: "slow", type: "test.slow", config: { ms: 100 } }]));
    const seen: RunProgressEvent[] = [];
    const onEvent = (e: RunProgressEvent) => seen.push(e);
    web.host.services.events.on("run.event", onEvent);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await post("async", { i });
      expect(res.status).toBe(202);
      ids.push(((await res.json()) as { runId: string }).runId);
    }
    for (const id of ids) expect((await waitForRun(web.host, id)).status).toBe("succeeded");
    web.host.services.events.off("run.event", onEvent);
    for (const id of ids) expect(seen.some((e) => e.runId === id)).toBe(true);
    expect(ranOn.get("w0") ?? 0).toBeGreaterThan(0);
    expect(ranOn.get("w1") ?? 0).toBeGreaterThan(0);
  });

  it("admits a repeated Idempotency-Key once", async () => {
    const flowId = await activate({
      ...hook("idem", "async", []),
      nodes: [{ id: "hook", type: "trigger.webhook", config: { path: "idem", idempotency: { ttlSec: 60 } } }],
    });
    const a = (await (await post("idem", {}, { "idempotency-key": "k1" })).json()) as { runId: string };
    const b = (await (await post("idem", {}, { "idempotency-key": "k1" })).json()) as { runId: string };
    expect(b.runId).toBe(a.runId);
    await waitForRun(web.host, a.runId);
    expect((await web.host.runs.list({ flowId })).runs).toHaveLength(1);
  });

  it("parks a durable wait in BullMQ's delayed set and resumes it on a worker", async () => {
    await activate(
      hook("wait", "async", [
        { id: "wait", type: "flow.wait", config: { mode: "delay", amount: 1, unit: "seconds" } },
      ]),
    );
    const { runId } = (await (await post("wait", {})).json()) as { runId: string };
    const run = await waitForRun(web.host, runId, 20_000);
    expect(run.status).toBe("succeeded");
    expect(run.steps.filter((s) => s.nodeId === "wait").map((s) => s.status)).toEqual([
      "waiting",
      "succeeded",
    ]);
  });

  it("cancels a run a worker is executing, from the web process", async () => {
    await activate(hook("cancel", "async", [{ id: "slow", type: "test.slow", config: { ms: 60_000 } }]));
    const { runId } = (await (await post("cancel", {})).json()) as { runId: string };
    for (let i = 0; i < 500 && (await web.host.runs.get(runId))?.status !== "running"; i++)
      await new Promise((r) => setTimeout(r, 20));
    const finished = new Promise((r) =>
      web.host.services.events.on("run.finished", (f) => f.runId === runId && r(f.status)),
    );
    expect(await web.host.control.cancelRun(runId)).toEqual({ runId, result: "signalled" });
    expect(await finished).toBe("cancelled");
    expect((await waitForRun(web.host, runId)).status).toBe("cancelled");
  });

  it("cancels a parked run without a worker, and re-runs it as a new run that names the first", async () => {
    const flowId = await activate(
      hook("rerun", "async", [
        { id: "wait", type: "flow.wait", config: { mode: "delay", amount: 30, unit: "seconds" } },
      ]),
    );
    const { runId } = await web.host.control.startRun(flowId, { payload: { x: 1 } });
    // The run parks in its wait (status waiting): cancelling it needs no worker.
    for (let i = 0; i < 500 && (await web.host.runs.get(runId))?.status !== "waiting"; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await web.host.runs.get(runId))?.status).toBe("waiting");
    expect(await web.host.control.cancelRun(runId)).toEqual({ runId, result: "cancelled" });
    expect((await waitForRun(web.host, runId)).status).toBe("cancelled");

    const again = await web.host.control.startRun(flowId, { payload: { x: 1 }, rerunOf: runId });
    for (let i = 0; i < 500 && (await web.host.runs.get(again.runId))?.status !== "waiting"; i++)
      await new Promise((r) => setTimeout(r, 20));
    const rerun = await web.host.runs.get(again.runId);
    expect(rerun?.rerunOf).toBe(runId);
    expect(rerun?.status).toBe("waiting");
    await web.host.control.cancelRun(again.runId);
  }, 30_000);

  it("answers with an agent step run on a worker (flow_memory_agent, retrieval-only)", async () => {
    await activate(
      hook("agent", "sync", [
        { id: "ask", type: "agent", config: { agent_ref: "flow_memory_agent", prompt: "What do we know?" } },
        { id: "respond", type: "webhook.respond", config: { status: 200, body: "=item" } },
      ]),
    );
    const res = await post("agent", {});
    expect(res.status).toBe(200);
    const run = await waitForRun(web.host, res.headers.get("x-switchyard-run-id")!);
    expect(run.steps.find((s) => s.nodeId === "ask")?.status).toBe("succeeded");
  });

  it("runs an e-mail received by the web process's SMTP server on a worker", async () => {
    const flowId = await activate({
      nodes: [
        { id: "mail", type: "trigger.email", config: { localPart: "orders" } },
        {
          id: "set",
          type: "data.set",
          config: { fields: [{ name: "s", value: "=item.subject" }], keepOnlySet: true },
        },
      ],
      edges: [{ from: { node: "mail", port: "main" }, to: { node: "set", port: "main" } }],
    });
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: web.host.services.smtpPort(),
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      from: "ada@example.com",
      to: "orders@localhost",
      subject: "Order 7",
      text: "hi",
    });
    transport.close();
    let runs = await web.host.runs.list({ flowId });
    for (let i = 0; i < 500 && runs.runs[0]?.status !== "succeeded"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      runs = await web.host.runs.list({ flowId });
    }
    const run = await waitForRun(web.host, runs.runs[0]!.id);
    expect(run.channel).toBe("email");
    const out = JSON.parse(run.steps.find((x) => x.nodeId === "set")!.output!) as {
      main: { json: unknown }[];
    };
    expect(out.main[0]!.json).toEqual({ s: "Order 7" });
  });

  it("reports the database, the queue and two live workers at /api/health", async () => {
    const res = await fetch(`${web.url}/api/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { role: string; db: string; queue: { workers: number } };
    expect(body).toMatchObject({ status: "ok", role: "web", db: "ok" });
    expect(body.queue.workers).toBe(2);
  });
});
