/**
 * Runs the n8n corpus (packages/import-n8n/corpus) through a real host: each file is imported, stored,
 * started the way its expectation says (manual payload, webhook call, schedule) and its steps, answer
 * and effects are compared with the expectation. Shared by the core and the integration corpus tests.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { importN8nWorkflow } from "@switchyard/import-n8n";
import type { CorpusEntry } from "@switchyard/import-n8n/corpus";
import { expect } from "vitest";
import { runOutcome, sqliteOf, type startTestHost, waitForRun } from "./test-host";

export type TestHost = Awaited<ReturnType<typeof startTestHost>>;

/** A small API on 127.0.0.1 the corpus's HTTP Request nodes call. */
export async function startCorpusApi(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const send = (body: unknown) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const order = /^\/orders\/(\d+)$/.exec(url.pathname);
    if (order && req.method === "GET")
      return send({
        id: Number(order[1]),
        expand: url.searchParams.get("expand"),
        trace: req.headers["x-trace"] ?? null,
        lines: [{ sku: "A" }, { sku: "B" }],
      });
    if (url.pathname === "/prices")
      return send([
        { sku: "A-1", price: 12 },
        { sku: "B-2", price: 5 },
      ]);
    if (url.pathname === "/echo" && req.method === "POST") {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => send(JSON.parse(body)));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Fills the corpus file's slots: the API's address, a hook path and a name unique to this run. */
export function fillCorpus(text: string, values: { http: string; hook: string; unique: string }) {
  return text
    .replaceAll("__HTTP__", values.http)
    .replaceAll("__HOOK__", values.hook)
    .replaceAll("__UNIQUE__", values.unique);
}

/** Imports a corpus file and stores it as a flow; answers its id and the import result. */
export async function importCorpusFlow(
  t: TestHost,
  entry: CorpusEntry,
  text: string,
  options: { credentials?: Record<string, string>; workflows?: Record<string, string> },
) {
  const result = importN8nWorkflow(text, options);
  const { name, description, ...definition } = result.flow;
  const created = await t.host.flows.create({ name, description, definition });
  return { id: created.id, ...result, entry };
}

/** The last succeeded output of each node of a run: node id → port → the items' JSON (empty ports left out). */
export function stepOutputs(t: TestHost, runId: string) {
  const rows = sqliteOf(t.host)
    .prepare(`SELECT nodeId, status, output FROM "Step" WHERE runId = ? ORDER BY startedAt, id`)
    .all(runId) as { nodeId: string; status: string; output: string | null }[];
  const out: Record<string, Record<string, unknown[]>> = {};
  const statuses: Record<string, string> = {};
  for (const r of rows) {
    statuses[r.nodeId] = r.status;
    if (r.status !== "succeeded" || !r.output) continue;
    const ports = JSON.parse(r.output) as Record<string, { json: unknown }[]>;
    out[r.nodeId] = Object.fromEntries(
      Object.entries(ports)
        .filter(([, items]) => items.length > 0)
        .map(([port, items]) => [port, items.map((i) => i.json)]),
    );
  }
  return { out, statuses };
}

/** Polls until the flow has a run (a schedule or an async webhook started it) and answers its id. */
export async function firstRunOf(t: TestHost, flowId: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { runs } = await t.host.runs.list({ flowId });
    if (runs.length > 0) return runs[runs.length - 1]!.id;
    if (Date.now() > deadline) throw new Error(`flow ${flowId} has no run after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts a stored corpus flow as its expectation says and checks the run against it. */
export async function runAndCheck(t: TestHost, flowId: string, entry: CorpusEntry, hook: string) {
  const { start, run: expectedRun, response } = entry.expected;
  let runId: string | undefined;
  if (start?.manual) {
    runId = (await t.host.control.startRun(flowId, { payload: start.manual })).runId;
  } else if (start?.webhook) {
    await t.host.control.setActive(flowId, true);
    const query = start.webhook.query ? `?${start.webhook.query}` : "";
    const res = await fetch(`${t.url}/hooks/${hook}${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(start.webhook.body),
    });
    if (response) {
      expect(res.status).toBe(response.status);
      for (const [k, v] of Object.entries(response.headers ?? {})) expect(res.headers.get(k)).toBe(v);
      if (response.body !== undefined) expect(await res.json()).toEqual(response.body);
    }
    if (expectedRun) runId = await firstRunOf(t, flowId);
  } else if (start?.schedule) {
    await t.host.control.setActive(flowId, true);
    runId = await firstRunOf(t, flowId);
  }
  if (!expectedRun || !runId) return;
  const run = await waitForRun(t.host, runId, 20_000);
  if (start?.schedule) await t.host.control.setActive(flowId, false);
  const { out, statuses } = stepOutputs(t, runId);
  const outcome = runOutcome(t.host, runId) as {
    status: string;
    errorNodeId: string | null;
    errorMessage: string | null;
  };
  expect({ status: run.status, error: outcome.errorMessage }).toMatchObject({
    status: expectedRun.status,
    ...(expectedRun.error ? { error: expectedRun.error.message } : {}),
  });
  if (expectedRun.error) expect(outcome.errorNodeId).toBe(expectedRun.error.node);
  for (const [node, ports] of Object.entries(expectedRun.steps ?? {}))
    expect(out[node], `output of ${node}`).toEqual(ports);
  for (const [node, fields] of Object.entries(expectedRun.stepFields ?? {}))
    for (const item of Object.values(out[node] ?? {}).flat())
      for (const f of fields) expect(item).toHaveProperty(f);
  for (const node of expectedRun.skipped ?? []) expect(statuses[node] ?? "not run").not.toBe("succeeded");
  return { runId, out };
}
