import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHost, conforms, exampleBody, startApiHost } from "./__tests__/harness";

let t: ApiHost;
let triage: string;
let waiting: string;
beforeAll(async () => {
  t = await startApiHost();
  triage = (await t.api("POST", "/flows", { body: exampleBody("order-triage.json") })).json.flow.id;
  // A flow that parks for an hour: its runs stay unfinished until cancelled.
  waiting = (
    await t.api("POST", "/flows", {
      body: {
        name: "Slow",
        definition: {
          nodes: [
            { id: "start", type: "trigger.manual" },
            { id: "pause", type: "flow.wait", config: { mode: "delay", amount: 1, unit: "hours" } },
          ],
          edges: [{ from: { node: "start" }, to: { node: "pause" } }],
        },
      },
    })
  ).json.flow.id;
});
afterAll(async () => {
  await t.close();
});

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("condition not reached");
}

describe("running flows over /api/v1", () => {
  it("runs a flow with ?wait=true and answers 200 with the finished run and its steps", async () => {
    const res = await t.api("POST", `/flows/${triage}/runs`, {
      body: { payload: { id: 7, total: 250 }, wait: true },
    });
    expect(res.status).toBe(200);
    const run = conforms("runFlow", res) as {
      status: string;
      channel: string;
      steps: { nodeId: string; status: string; port: string | null }[];
      output: unknown;
    };
    expect(run).toMatchObject({
      status: "succeeded",
      channel: "api",
      flowVersion: 1,
      payload: { id: 7, total: 250 },
    });
    expect(run.steps.map((s) => [s.nodeId, s.status, s.port])).toEqual([
      ["start", "succeeded", "main"],
      ["big", "succeeded", "true"],
      ["normal", "skipped", null],
      ["high", "succeeded", "main"],
    ]);
    expect(JSON.stringify(run.steps[3])).toContain('"priority":"high"');
  });

  it("answers 202 with the run id without waiting, and the run is durable already", async () => {
    const res = await t.api("POST", `/flows/${triage}/runs`, { body: { payload: { id: 8, total: 5 } } });
    expect(res.status).toBe(202);
    const accepted = conforms("runFlow", res) as { runId: string };
    expect(await t.host.runs.get(accepted.runId)).not.toBeNull();
    const run = await until(
      () => t.api("GET", `/runs/${accepted.runId}`),
      (r) => r.json.status === "succeeded",
    );
    expect(run.json.steps.map((s: { nodeId: string; status: string }) => `${s.nodeId}:${s.status}`)).toEqual([
      "start:succeeded",
      "big:succeeded",
      "high:skipped",
      "normal:succeeded",
    ]);
  });

  it("answers 202 when ?wait=true runs out of time, and the run goes on", async () => {
    const res = await t.api("POST", `/flows/${waiting}/runs`, { body: { wait: true, timeoutMs: 300 } });
    expect(res.status).toBe(202);
    expect(conforms("runFlow", res)).toMatchObject({ runId: expect.any(String), flowVersion: 1 });
    const run = await until(
      () => t.api("GET", `/runs/${res.json.runId}`),
      (r) => r.json.status === "waiting",
    );
    expect(run.json.steps.at(-1)).toMatchObject({ nodeId: "pause", status: "waiting" });
  });

  it("runs without a payload as an empty payload, and refuses the options in the query", async () => {
    const res = await t.api("POST", `/flows/${triage}/runs`, { body: { wait: true } });
    expect(res.status).toBe(200);
    expect(res.json.payload).toEqual({});
    const inQuery = await t.api("POST", `/flows/${triage}/runs?wait=true`);
    expect(inQuery.status).toBe(400);
    expect(inQuery.json.error.details.problems).toEqual([
      { path: "query.wait", message: "unknown query parameter 'wait' (send it in the body)" },
    ]);
  });

  it("refuses bad run options with their body paths and starts nothing", async () => {
    const before = await t.host.db.prisma.run.count();
    const res = await t.api("POST", `/flows/${triage}/runs`, {
      body: { wait: "yes", timeoutMs: 0, id: "x" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.details.problems.map((p: { path: string }) => p.path).sort()).toEqual(["body.id"]);
    const bad = await t.api("POST", `/flows/${triage}/runs`, { body: { wait: "yes", timeoutMs: 0 } });
    expect(bad.json.error.details.problems.map((p: { path: string }) => p.path).sort()).toEqual([
      "body.timeoutMs",
      "body.wait",
    ]);
    expect(await t.host.db.prisma.run.count()).toBe(before);
  });

  it("cancels a parked run, and a second cancel is a conflict", async () => {
    const { json } = await t.api("POST", `/flows/${waiting}/runs`);
    await until(
      () => t.api("GET", `/runs/${json.runId}`),
      (r) => r.json.status === "waiting",
    );
    const cancelled = await t.api("POST", `/runs/${json.runId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(conforms("cancelRun", cancelled)).toEqual({ runId: json.runId, result: "cancelled" });
    expect((await t.api("GET", `/runs/${json.runId}`)).json.status).toBe("cancelled");
    const again = await t.api("POST", `/runs/${json.runId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("conflict");
    expect((await t.api("POST", "/runs/nope/cancel")).status).toBe(404);
  });

  it("re-runs a run with its payload and flow version, linked to the original", async () => {
    const first = await t.api("POST", `/flows/${triage}/runs`, {
      body: { payload: { id: 9, total: 101 }, wait: true },
    });
    const rerun = await t.api("POST", `/runs/${first.json.id}/rerun`);
    expect(rerun.status).toBe(202);
    expect(conforms("rerunRun", rerun)).toMatchObject({
      rerunOf: first.json.id,
      flowVersion: 1,
      status: "queued",
    });
    const run = await until(
      () => t.api("GET", `/runs/${rerun.json.runId}`),
      (r) => r.json.status === "succeeded",
    );
    expect(conforms("getRun", run)).toMatchObject({ rerunOf: first.json.id, payload: { id: 9, total: 101 } });
    expect((await t.api("POST", "/runs/nope/rerun")).status).toBe(404);
  });

  it("retries a failed run from its failed step as a linked run, and refuses a run that did not fail", async () => {
    const { json: flow } = await t.api("POST", "/flows", {
      body: {
        name: "Fails",
        definition: {
          nodes: [
            { id: "start", type: "trigger.manual" },
            { id: "check", type: "flow.stop", config: { outcome: "error", message: "no customer" } },
          ],
          edges: [{ from: { node: "start" }, to: { node: "check" } }],
        },
      },
    });
    const failed = await t.api("POST", `/flows/${flow.flow.id}/runs`, { body: { wait: true } });
    expect(failed.json.status).toBe("failed");
    const retry = await t.api("POST", `/runs/${failed.json.id}/retry`);
    expect(retry.status).toBe(202);
    expect(conforms("retryRun", retry)).toMatchObject({ retryOf: failed.json.id, status: "queued" });
    const run = await t.host.db.prisma.run.findUnique({ where: { id: retry.json.runId } });
    expect(run).toMatchObject({ rerunOf: failed.json.id, stepMode: "retry", stepNode: "check" });

    const ok = await t.api("POST", `/flows/${triage}/runs`, {
      body: { payload: { id: 1, total: 5 }, wait: true },
    });
    const refused = await t.api("POST", `/runs/${ok.json.id}/retry`);
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toBe(
      `run ${ok.json.id} did not fail at a step (it is succeeded); re-run it instead`,
    );
    expect((await t.api("POST", "/runs/nope/retry")).status).toBe(404);
  });

  it("keeps the original run's channel on a rerun, so a webhook run does not gain the api ceiling", async () => {
    for (const channel of ["webhook", "email", "manual"] as const) {
      const { runId } = await t.host.control.startRun(triage, { payload: { id: 1, total: 5 }, channel });
      const rerun = await t.api("POST", `/runs/${runId}/rerun`);
      expect(rerun.status).toBe(202);
      const run = await t.host.db.prisma.run.findUnique({ where: { id: rerun.json.runId } });
      expect(run, channel).toMatchObject({ channel, rerunOf: runId });
    }
  });

  it("answers 404 for an unknown run", async () => {
    const res = await t.api("GET", "/runs/nope");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });
});

describe("listing runs", () => {
  it("filters by flow, status and channel, and pages with a cursor until it is null", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await t.api("POST", `/flows/${triage}/runs`, { body: { payload: { total: i }, wait: true } })).json
          .id,
      );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await t.api(
        "GET",
        `/runs?flowId=${triage}&status=succeeded&channel=api&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      const page = conforms("listRuns", res);
      expect(page.runs.length).toBeLessThanOrEqual(2);
      for (const r of page.runs as unknown[])
        expect(r).toMatchObject({
          flowId: triage,
          status: "succeeded",
          channel: "api",
          flowName: "Order triage",
        });
      seen.push(...page.runs.map((r: { id: string }) => r.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect(seen).toEqual([...seen].sort().reverse());
    expect((await t.api("GET", `/runs?flowId=${waiting}&status=succeeded`)).json.runs).toEqual([]);
  });

  it("filters by a created-at window", async () => {
    const { json } = await t.api("POST", `/flows/${triage}/runs`, {
      body: { payload: { total: 1 }, wait: true },
    });
    const at = new Date(json.createdAt).getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const inside = await t.api("GET", `/runs?since=${iso(at)}&until=${iso(at + 1)}`);
    expect(inside.json.runs.map((r: { id: string }) => r.id)).toEqual([json.id]);
    expect(
      (await t.api("GET", `/runs?since=${iso(at + 1)}&flowId=${triage}`)).json.runs.map(
        (r: { id: string }) => r.id,
      ),
    ).not.toContain(json.id);
    expect(
      (await t.api("GET", `/runs?until=${iso(at)}`)).json.runs.map((r: { id: string }) => r.id),
    ).not.toContain(json.id);
  });

  it("answers ?channel= with the same page as the runs page's list, from the one repository query", async () => {
    await t.api("POST", `/flows/${triage}/runs`, { body: { payload: { total: 3 }, wait: true } });
    const rest = await t.api("GET", `/runs?channel=api&status=succeeded&limit=3`);
    const ui = await t.host.runs.list({ channel: "api", status: "succeeded", limit: 3 });
    expect(rest.json.runs.map((r: { id: string }) => r.id)).toEqual(ui.runs.map((r) => r.id));
    expect(rest.json.nextCursor).toBe(ui.nextCursor);
    expect(rest.json.runs.length).toBeGreaterThan(0);
  });

  it("refuses a cursor that names no run with 400 and the reason", async () => {
    const res = await t.api("GET", "/runs?cursor=no-such-run");
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "invalid_request",
      message: 'cursor "no-such-run" names no stored run; start again from the first page',
    });
  });

  it("refuses bad filters with every problem named", async () => {
    const res = await t.api("GET", "/runs?status=done&since=yesterday&limit=0&flowid=x");
    expect(res.status).toBe(400);
    expect(res.json.error.details.problems.map((p: { path: string }) => p.path).sort()).toEqual(
      ["query.flowid", "query.limit", "query.since", "query.status"].sort(),
    );
  });
});

describe("memory over /api/v1", () => {
  it("adds an item and finds it again", async () => {
    const added = await t.api("POST", "/memory/items", {
      body: { key: "wifi", content: "The office wifi password is on the fridge.", tags: ["office"] },
    });
    expect(added.status).toBe(201);
    expect(conforms("addMemoryItem", added)).toMatchObject({
      key: "wifi",
      namespace: "global",
      kind: "memory",
      tags: ["office"],
    });
    const found = await t.api("GET", `/memory/search?q=${encodeURIComponent("wifi password")}&mode=lexical`);
    expect(found.status).toBe(200);
    expect(conforms("searchMemory", found).hits[0]?.item.id).toBe(added.json.id);
    expect((await t.api("GET", "/memory/search?q=wifi&namespace=elsewhere")).json.hits).toEqual([]);
  });

  it("refuses an item without content and a search without a query", async () => {
    const bad = await t.api("POST", "/memory/items", { body: { key: " " } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.problems.map((p: { path: string }) => p.path).sort()).toEqual([
      "body.content",
      "body.key",
    ]);
    const noQuery = await t.api("GET", "/memory/search");
    expect(noQuery.status).toBe(400);
    expect(noQuery.json.error.details.problems[0].path).toBe("query.q");
  });
});
