import { createServer, type Server } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost, waitForRun } from "../__tests__/test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
let server: Server;
let base = "";
/** Requests per path; `/b` answers 500 while `failB` is set. */
const hits = new Map<string, number>();
let failB = false;

beforeEach(async () => {
  hits.clear();
  failB = false;
  server = createServer((req, res) => {
    const path = req.url ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const status = path === "/b" && failB ? 500 : 200;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ path, n: hits.get(path) }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t = await startTestHost();
  await t.host.settings.set("http.allowHosts", ["127.0.0.1"]);
  await t.host.services.reloadHttp();
});
afterEach(async () => {
  await t.close();
  await new Promise((r) => server.close(r));
});

const get = (id: string, path: string) => ({
  id,
  type: "http.request",
  config: { method: "GET", url: `${base}${path}`, retries: 0 },
});
/** start → a → b → c, each an HTTP call the test server counts. */
const chain = (pinData?: Record<string, unknown>) => ({
  nodes: [{ id: "start", type: "trigger.manual" }, get("a", "/a"), get("b", "/b"), get("c", "/c")],
  edges: [
    { from: { node: "start" }, to: { node: "a" } },
    { from: { node: "a" }, to: { node: "b" } },
    { from: { node: "b" }, to: { node: "c" } },
  ],
  ...(pinData ? { pinData } : {}),
});

const executed = (run: Awaited<ReturnType<typeof waitForRun>>) =>
  run.steps
    .filter((s) => s.reason !== "reused" && s.reason !== "pinned")
    .map((s) => `${s.nodeId}:${s.status}`);

describe("retry from the failed step", () => {
  it("starts a new linked run on the same channel that reuses the steps before the failure without executing them", async () => {
    const { id } = await t.host.flows.create({ name: "Chain", definition: chain() });
    failB = true;
    const first = await t.host.control.startRun(id, { channel: "api", payload: { order: 7 } });
    const failed = await waitForRun(t.host, first.runId);
    expect(failed).toMatchObject({ status: "failed", errorNodeId: "b" });
    expect([...hits]).toEqual([
      ["/a", 1],
      ["/b", 1],
    ]);

    failB = false;
    const retry = await t.host.control.retryRun(first.runId);
    const run = await waitForRun(t.host, retry.runId);
    expect(run).toMatchObject({
      status: "succeeded",
      channel: "api",
      rerunOf: first.runId,
      stepMode: "retry",
      stepNode: "b",
    });
    expect(run.triggerPayload).toBe(JSON.stringify({ order: 7 }));
    // a (and the trigger) came from the failed run; only b and c ran.
    expect(hits.get("/a")).toBe(1);
    expect(run.steps.filter((s) => s.reason === "reused").map((s) => s.nodeId)).toEqual(["start", "a"]);
    expect(executed(run)).toEqual(["b:succeeded", "c:succeeded"]);
    const trace = await t.host.runs.trace(first.runId);
    expect(trace?.reruns).toEqual([{ id: retry.runId, status: "succeeded", stepMode: "retry" }]);
  });

  it("refuses to retry a run that did not fail at a step, and admits nothing", async () => {
    const { id } = await t.host.flows.create({ name: "Chain", definition: chain() });
    const ok = await t.host.control.startRun(id);
    await waitForRun(t.host, ok.runId);
    await expect(t.host.control.retryRun(ok.runId)).rejects.toThrow(
      `run ${ok.runId} did not fail at a step (it is succeeded); re-run it instead`,
    );
    await expect(t.host.control.retryRun("nope")).rejects.toThrow("run nope not found");
    expect((await t.host.runs.list({ flowId: id })).runs).toHaveLength(1);
  });
});

describe("run one node, run up to a node", () => {
  it("runs only the node, on its input from the last run, and stops there", async () => {
    const { id } = await t.host.flows.create({ name: "Chain", definition: chain() });
    const whole = await t.host.control.startRun(id);
    await waitForRun(t.host, whole.runId);
    hits.clear();

    const step = await t.host.control.startStepRun(id, "node", "b");
    expect(step.inputFrom).toBe(whole.runId);
    const run = await waitForRun(t.host, step.runId);
    expect(run).toMatchObject({ status: "succeeded", stepMode: "node", stepNode: "b", rerunOf: whole.runId });
    expect([...hits]).toEqual([["/b", 1]]);
    expect(executed(run)).toEqual(["b:succeeded"]);
  });

  it("runs the node on the channel of the run its input came from, so replayed outside data keeps its ceiling", async () => {
    const { id } = await t.host.flows.create({ name: "Chain", definition: chain() });
    const hooked = await t.host.control.startRun(id, { channel: "webhook" });
    await waitForRun(t.host, hooked.runId);
    const step = await t.host.control.startStepRun(id, "node", "b");
    expect(step.inputFrom).toBe(hooked.runId);
    expect((await waitForRun(t.host, step.runId)).channel).toBe("webhook");
    const pinnedUpTo = await t.host.control.startStepRun(id, "until", "b");
    expect((await waitForRun(t.host, pinnedUpTo.runId)).channel).toBe("manual");
  });

  it("runs only the node on a pinned parent's items when no run has its input", async () => {
    const { id } = await t.host.flows.create({
      name: "Chain",
      definition: chain({ a: [{ json: { pinned: true } }] }),
    });
    const step = await t.host.control.startStepRun(id, "node", "b");
    expect(step.inputFrom).toBeNull();
    const run = await waitForRun(t.host, step.runId);
    expect(run.status).toBe("succeeded");
    expect([...hits]).toEqual([["/b", 1]]);
    expect(run.steps.find((s) => s.nodeId === "a")?.reason).toBe("pinned");
  });

  it("refuses to run a node whose input no run has and nothing pins, naming what is missing", async () => {
    const { id } = await t.host.flows.create({ name: "Chain", definition: chain() });
    await expect(t.host.control.startStepRun(id, "node", "c")).rejects.toThrow(
      'node "c" has no input yet: no earlier run has an output of "a", "b"; pin data there or run up to "c" first',
    );
    await expect(t.host.control.startStepRun(id, "until", "zz")).rejects.toThrow(
      'node "zz" is not in the saved flow (save it first)',
    );
    expect((await t.host.runs.list({ flowId: id })).runs).toHaveLength(0);
    expect(hits.size).toBe(0);
  });

  it("runs up to a node: the node and what it depends on, nothing after it", async () => {
    const { id } = await t.host.flows.create({ name: "Chain", definition: chain() });
    const step = await t.host.control.startStepRun(id, "until", "b");
    const run = await waitForRun(t.host, step.runId);
    expect(run.status).toBe("succeeded");
    expect([...hits]).toEqual([
      ["/a", 1],
      ["/b", 1],
    ]);
    expect(executed(run)).toEqual(["start:succeeded", "a:succeeded", "b:succeeded"]);
  });
});
