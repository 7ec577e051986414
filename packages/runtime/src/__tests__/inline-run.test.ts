import { registry } from "@switchyard/nodes";
import { compileGraph, type FlowDefinition, parseFlow } from "@switchyard/engine";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isInlineEligible } from "../runs/inline-runs";
import { sqliteOf, startTestHost } from "./test-host";

const hook = { id: "hook", type: "trigger.webhook", config: { path: "calc", responseMode: "sync" } };
const chain = (...nodes: { id: string; type: string; config: unknown; retry?: unknown }[]) => ({
  nodes: [hook, ...nodes],
  edges: nodes.map((n, i) => ({
    from: { node: i === 0 ? "hook" : nodes[i - 1]!.id, port: "main" },
    to: { node: n.id, port: "main" },
  })),
});
const set = (value: string) => ({
  id: "set",
  type: "data.set",
  config: { fields: [{ name: "n", value }], keepOnlySet: true },
});
const respond = { id: "respond", type: "webhook.respond", config: { status: 200, body: "=item" } };

function compiled(def: unknown) {
  const parsed = parseFlow({ name: "t", ...(def as object) });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const flow: FlowDefinition = parsed.flow;
  return { flow, graph: compileGraph(flow, registry) };
}

describe("which webhook flows run inside the request", () => {
  it("takes flows made only of pure, quick nodes", () => {
    expect(isInlineEligible(compiled(chain(set("=item.body.n + 1"), respond)), registry)).toBe(true);
  });

  it("leaves flows with an outside effect, a Code node or a retry policy to the queue", () => {
    const http = { id: "http", type: "http.request", config: { method: "GET", url: "https://example.com" } };
    const code = { id: "code", type: "code", config: { code: "return items;" } };
    const retried = { ...set("=1"), retry: { maxAttempts: 3, backoff: "fixed", delayMs: 10 } };
    expect(isInlineEligible(compiled(chain(http, respond)), registry)).toBe(false);
    expect(isInlineEligible(compiled(chain(code, respond)), registry)).toBe(false);
    expect(isInlineEligible(compiled(chain(retried, respond)), registry)).toBe(false);
  });
});

describe("an inline webhook run", () => {
  let t: Awaited<ReturnType<typeof startTestHost>>;
  beforeEach(async () => {
    t = await startTestHost();
  });
  afterEach(async () => {
    await t.close();
  });
  const post = (body: unknown) =>
    fetch(`${t.url}/hooks/calc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const row = (runId: string) =>
    sqliteOf(t.host)
      .prepare(
        `SELECT status, attempts, leaseOwner, errorCode, errorNodeId, durationMs FROM "Run" WHERE id = ?`,
      )
      .get(runId);
  const steps = (runId: string) =>
    sqliteOf(t.host).prepare(`SELECT nodeId, status FROM "Step" WHERE runId = ? ORDER BY id`).all(runId);

  it("answers only once its finished run and every step are on disk", async () => {
    const { id } = await t.host.flows.create({
      name: "Calc",
      definition: chain(set("=item.body.n + 1"), respond),
    });
    await t.host.control.setActive(id, true);
    const res = await post({ n: 41 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ n: 42 });
    const runId = res.headers.get("x-switchyard-run-id")!;
    // Read at once, no polling: the answer came after the commit.
    expect(row(runId)).toMatchObject({ status: "succeeded", attempts: 1, leaseOwner: null, errorCode: null });
    expect(steps(runId)).toEqual([
      { nodeId: "hook", status: "succeeded" },
      { nodeId: "set", status: "succeeded" },
      { nodeId: "respond", status: "succeeded" },
    ]);
  });

  it("answers the anonymous caller a generic 500 with the run id, after recording the failure naming the node and field", async () => {
    const { id } = await t.host.flows.create({
      name: "Calc",
      definition: chain(set("=item.body.n + 1"), respond),
    });
    await t.host.control.setActive(id, true);
    const res = await post({ n: "forty-one" });
    expect(res.status).toBe(500);
    const runId = res.headers.get("x-switchyard-run-id")!;
    // The failure's text (node, field, expression) is for the flow's owner, not for whoever called the hook.
    expect(await res.json()).toEqual({
      error: {
        code: "run_failed",
        message: `the flow run failed; its details are in the run's trace (run ${runId})`,
        runId,
      },
    });
    expect(row(runId)).toMatchObject({
      status: "failed",
      errorCode: "expression_failed",
      errorNodeId: "set",
    });
    const stored = sqliteOf(t.host).prepare(`SELECT errorMessage FROM "Run" WHERE id = ?`).get(runId) as {
      errorMessage: string;
    };
    expect(stored.errorMessage).toMatch(
      /^node "set" field "fields\.0\.value" at position \d+: The left side of the "\+" operator must evaluate to a number/,
    );
    expect(steps(runId)).toEqual([
      { nodeId: "hook", status: "succeeded" },
      { nodeId: "set", status: "failed" },
    ]);
    // The next request is unaffected.
    expect(await (await post({ n: 1 })).json()).toEqual({ n: 2 });
  });
});
