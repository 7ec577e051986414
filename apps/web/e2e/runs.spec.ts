import { rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import Database from "better-sqlite3";
import { useSession } from "./support/auth";
import { type RunningServer, runCli, startServer, tempDataDir, trpc } from "./support/server";
import { shot } from "./support/shot";

// One Switchyard server and one local upstream for the file; each test builds its own flow.
let server: RunningServer;
let dir: string;
let upstream: Server;
let upstreamUrl: string;
const hits = { flaky: 0 };
const aborted: string[] = [];
/** Answers of /slow held until the test has seen the run mid-flight: a timer raced the page load on a slow machine. */
const heldSlow: Array<() => void> = [];

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1500, height: 1000 } });

/** A local API: /flaky fails twice then answers, /slow answers when the test releases it, /hang never answers on its own. */
function handle(req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? "";
  // A response cut off before we ended it means the client aborted (the step saw the abort signal).
  res.on("close", () => {
    if (!res.writableEnded) aborted.push(url);
  });
  if (url.startsWith("/flaky")) {
    hits.flaky++;
    if (hits.flaky <= 2) {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "try again" }));
      return;
    }
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ order: 42, approved: false }));
    return;
  }
  if (url.startsWith("/slow")) {
    heldSlow.push(() => res.writeHead(200, { "content-type": "application/json" }).end('{"slow":true}'));
    return;
  }
  if (url.startsWith("/hang")) {
    setTimeout(() => res.writeHead(200).end("late"), 30_000).unref();
    return;
  }
  res.writeHead(404).end();
}

test.beforeAll(async () => {
  upstream = createServer(handle);
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const addr = upstream.address();
  upstreamUrl = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;

  dir = tempDataDir();
  // http.request may only reach hosts the settings allow; the setting is read when the host starts.
  const migrate = runCli(["migrate"], { SWITCHYARD_DATA_DIR: dir });
  expect(await migrate.exited).toBe(0);
  const db = new Database(path.join(dir, "switchyard.db"));
  db.prepare(
    `INSERT INTO "Setting" (key, value, updatedAt) VALUES ('http.allowHosts', '["127.0.0.1"]', ?)`,
  ).run(new Date().toISOString());
  db.close();
  server = await startServer(dir);
});

test.afterAll(async () => {
  await server?.stop();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const settings = { timezone: "UTC", maxRunMs: 300_000, concurrency: 4 };
const trigger = {
  id: "start",
  type: "trigger.manual",
  name: "Start",
  config: {},
  position: { x: 0, y: 150 },
};
const http = (id: string, name: string, url: string, x: number, extra: Record<string, unknown> = {}) => ({
  id,
  type: "http.request",
  name,
  config: { method: "GET", url, retries: 0, timeoutMs: 60_000 },
  position: { x, y: 150 },
  ...extra,
});
const edge = (from: string, to: string, port = "main") => ({
  from: { node: from, port },
  to: { node: to, port: "main" },
});

async function startFlow(name: string, definition: unknown, payload: unknown = {}) {
  const flow = await trpc<{ id: string }>(server.url, "flow.create", { name, definition }, "mutation");
  const run = await trpc<{ runId: string }>(server.url, "flow.run", { id: flow.id, payload }, "mutation");
  return { flowId: flow.id, runId: run.runId };
}

type RunGet = {
  status: string;
  endedAt: string | null;
  steps: { nodeId: string; attempt: number; status: string }[];
};
async function waitForStatus(runId: string, statuses: string[], timeoutMs = 20_000): Promise<RunGet> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await trpc<RunGet>(server.url, "run.get", { id: runId });
    if (statuses.includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const node = (page: Page, id: string) => page.locator(`[data-testid=run-node][data-node-id="${id}"]`);

test("[1] the run page shows each node's status, the retries, the failing node's error and the waterfall", async ({
  page,
}, testInfo) => {
  const definition = {
    settings,
    nodes: [
      trigger,
      http("flaky", "Fetch order", `${upstreamUrl}/flaky`, 300, {
        retry: { maxAttempts: 3, backoff: "fixed", delayMs: 200 },
      }),
      {
        id: "check",
        type: "logic.if",
        name: "Approved?",
        config: { condition: "=item.body.approved" },
        position: { x: 600, y: 150 },
      },
      { id: "ship", type: "flow.noop", name: "Ship it", config: {}, position: { x: 900, y: 50 } },
      {
        id: "reject",
        type: "flow.stop",
        name: "Reject",
        config: { outcome: "error", message: "order 42 was not approved" },
        position: { x: 900, y: 250 },
      },
    ],
    edges: [
      edge("start", "flaky"),
      edge("flaky", "check"),
      edge("check", "ship", "true"),
      edge("check", "reject", "false"),
    ],
  };
  const { runId } = await startFlow("Orders with a retry", definition, { order: 42, note: "first try" });
  const final = await waitForStatus(runId, ["failed"]);
  expect(final.steps.filter((s) => s.nodeId === "flaky").map((s) => [s.attempt, s.status])).toEqual([
    [1, "failed"],
    [2, "failed"],
    [3, "succeeded"],
  ]);

  await useSession(page, server.url);
  await page.goto(`${server.url}/runs/${runId}`);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "failed");
  await expect(page.getByTestId("run-error")).toContainText("order 42 was not approved");
  await expect(node(page, "start")).toHaveAttribute("data-status", "succeeded");
  await expect(node(page, "flaky")).toHaveAttribute("data-status", "succeeded");
  await expect(node(page, "flaky")).toHaveAttribute("data-attempts", "3");
  await expect(node(page, "flaky").getByTestId("attempts-badge")).toHaveText("×3");
  await expect(node(page, "check")).toHaveAttribute("data-status", "succeeded");
  await expect(node(page, "ship")).toHaveAttribute("data-status", "skipped");
  await expect(node(page, "reject")).toHaveAttribute("data-status", "failed");
  await expect(node(page, "reject")).toContainText("order 42 was not approved");

  // Waterfall: one bar per attempt, retries included.
  const bars = page.getByTestId("waterfall-bar");
  await expect(bars.and(page.locator("[data-node-id=flaky]"))).toHaveCount(3);
  await expect(
    page.locator("[data-testid=waterfall-bar][data-node-id=flaky][data-attempt='1']"),
  ).toHaveAttribute("data-status", "failed");
  await expect(
    page.locator("[data-testid=waterfall-bar][data-node-id=flaky][data-attempt='3']"),
  ).toHaveAttribute("data-status", "succeeded");
  await shot(page, testInfo, "run-failed-with-retries");

  // Inspector: the failing node's error; a failed attempt's HTTP error; the If's port.
  await node(page, "reject").click();
  await expect(page.getByTestId("step-error-message")).toHaveText("order 42 was not approved");
  await expect(page.getByTestId("step-error")).toContainText("input_invalid");
  await page.locator("[data-testid=waterfall-bar][data-node-id=flaky][data-attempt='1']").click();
  await expect(page.getByTestId("step-error")).toContainText("answered HTTP 500");
  await node(page, "check").click();
  await expect(page.getByTestId("port-taken")).toHaveText("false");
  // The body sits deeper than the default expansion: searching opens the path to it.
  const output = page.getByTestId("step-output-false");
  await expect(output).not.toContainText("approved");
  await output.getByRole("textbox").fill("approved");
  await expect(output).toContainText("1 match");
  await expect(output).toContainText("approved: false");
  await expect(page.getByTestId("trigger-payload")).toContainText("first try");
  await shot(page, testInfo, "inspector-if-node");

  // Re-run with the same payload → the new run links back.
  await page.getByRole("button", { name: "Re-run" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${runId}$`));
  await expect(page.getByTestId("rerun-of")).toContainText(runId);
  await expect(page.getByTestId("trigger-payload")).toContainText("first try");
  await expect(page.getByRole("link", { name: "Open in editor with this data" })).toHaveAttribute(
    "href",
    /\/flows\/.+\?pinRun=/,
  );

  // The list finds the failed run by its error text.
  await page.goto(`${server.url}/runs?q=${encodeURIComponent("not approved")}`);
  await expect(page.locator(`[data-testid=run-row][data-run-id="${runId}"]`)).toBeVisible();
  await shot(page, testInfo, "runs-list-search");
});

test("[2] a running run updates on the page without a reload", async ({ page }, testInfo) => {
  const definition = {
    settings,
    nodes: [
      trigger,
      http("slow", "Slow call", `${upstreamUrl}/slow`, 300),
      { id: "after", type: "flow.noop", name: "After", config: {}, position: { x: 600, y: 150 } },
    ],
    edges: [edge("start", "slow"), edge("slow", "after")],
  };
  await useSession(page, server.url);
  const { runId } = await startFlow("Slow upstream", definition);
  await page.goto(`${server.url}/runs/${runId}`);
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await expect(node(page, "slow")).toHaveAttribute("data-status", "running");
  await expect(page.getByTestId("live-mode")).toHaveAttribute("data-mode", "sse");
  await expect(node(page, "after")).toHaveAttribute("data-status", "pending");
  await shot(page, testInfo, "live-running");
  // The stream is authenticated like tRPC: no session, no events.
  expect((await fetch(`${server.url}/api/runs/${runId}/events`)).status).toBe(401);
  await expect.poll(() => heldSlow.length).toBe(1);
  heldSlow.shift()?.();
  await expect(node(page, "slow")).toHaveAttribute("data-status", "succeeded", { timeout: 10_000 });
  await expect(node(page, "after")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await shot(page, testInfo, "live-finished");
});

test("[3] cancelling a run with a 30 s step ends it cancelled within 2 s, and the step sees the abort", async ({
  page,
}, testInfo) => {
  const definition = {
    settings,
    nodes: [trigger, http("hang", "Hanging call", `${upstreamUrl}/hang`, 300)],
    edges: [edge("start", "hang")],
  };
  await useSession(page, server.url);
  const { runId } = await startFlow("Hanging upstream", definition);
  await page.goto(`${server.url}/runs/${runId}`);
  await expect(node(page, "hang")).toHaveAttribute("data-status", "running");
  let sentAt = Number.NaN;
  page.on("request", (r) => {
    if (r.url().includes("run.cancel")) sentAt = Date.now();
  });
  await page.getByRole("button", { name: "Cancel run" }).click();
  const ended = await waitForStatus(runId, ["cancelled"], 5_000);
  // From the moment the browser sent the cancel to the run's recorded end (same machine, same clock).
  const latency = Date.parse(ended.endedAt!) - sentAt;
  testInfo.annotations.push({
    type: "cancel latency",
    description: `${latency} ms from request to recorded end`,
  });
  expect(latency).toBeLessThan(2_000);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "cancelled");
  await expect.poll(() => aborted.filter((u) => u.startsWith("/hang")).length).toBe(1);
  await shot(page, testInfo, "cancelled");
});

test("large payloads: the trace marks fields cut at 4 MiB and pages big arrays instead of rendering them whole", async ({
  page,
}, testInfo) => {
  const rows = Array.from({ length: 30_000 }, (_, i) => ({ id: i, sku: `SKU-${i}` }));
  // About 4.7 MB: over the 4 MiB a step output keeps, under the 5 MB a tRPC request may carry.
  const payload = { rows, blob: "x".repeat(3_800_000) };
  const { runId } = await startFlow("Big payload", { settings, nodes: [trigger], edges: [] }, payload);
  await waitForStatus(runId, ["succeeded"]);
  await useSession(page, server.url);
  await page.goto(`${server.url}/runs/${runId}`);
  await node(page, "start").click();
  // The trigger step's output is over 4 MiB: the store keeps a marked preview, and the inspector says so.
  await expect(page.getByTestId("step-inspector").getByTestId("json-truncated")).toContainText(
    "was not stored in full",
  );
  // The run keeps the whole payload; its 30 000 rows are shown 100 at a time.
  const raw = page.getByTestId("payload-json");
  await expect(raw.getByRole("button", { name: "show 100 more of 30,000" })).toBeVisible();
  await raw.getByRole("button", { name: "show 100 more of 30,000" }).click();
  await expect(raw.getByRole("button", { name: "show 100 more of 30,000" })).toBeVisible();
  await expect(raw.getByText("SKU-199", { exact: false })).toBeVisible();
  await expect(raw.getByText("SKU-200", { exact: false })).toHaveCount(0);
  await shot(page, testInfo, "large-payload");
});

test("the runs list filters by status and channel and counts runs per status", async ({ page }, testInfo) => {
  await useSession(page, server.url);
  await page.goto(`${server.url}/runs`);
  await expect(page.getByTestId("run-row").first()).toBeVisible();
  const all = Number(await page.getByTestId("count-all").textContent());
  const failed = Number(await page.getByTestId("count-failed").textContent());
  expect(all).toBeGreaterThanOrEqual(5);
  await page.getByTestId("status-chip-failed").click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByTestId("run-row")).toHaveCount(failed);
  await shot(page, testInfo, "runs-list-failed");
  await page.getByRole("combobox", { name: "Channel" }).selectOption("webhook");
  await expect(page.getByText("No runs match")).toBeVisible();
});

test("retention settings show the database size and save a global policy with a per-flow override", async ({
  page,
}, testInfo) => {
  const flows = await trpc<{ id: string; name: string }[]>(server.url, "flow.list");
  const big = flows.find((f) => f.name === "Big payload")!;
  await useSession(page, server.url);
  await page.goto(`${server.url}/settings/retention`);
  await expect(page.getByTestId("db-size")).toContainText(
    /\d+\.\d MB \(\d+\.\d MB data \+ \d+\.\d MB write-ahead log\)/,
  );
  await page.getByRole("spinbutton", { name: "Keep runs for (days)", exact: true }).fill("30");
  await page.getByRole("spinbutton", { name: "Keep failed runs for (days)", exact: true }).fill("7");
  await page.getByRole("combobox", { name: "Add override for flow" }).selectOption(big.id);
  await page.getByRole("button", { name: "Add override" }).click();
  await page.getByRole("spinbutton", { name: `${big.id} Keep at most (runs per flow)` }).fill("100");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByRole("button", { name: "Saved" })).toBeVisible();
  // The form opened with the default (14 days, 10 000 runs per flow); the count left as shown is saved.
  expect(await trpc(server.url, "run.retention.policy")).toEqual({
    keepDays: 30,
    keepFailedDays: 7,
    keepRuns: 10_000,
    flows: { [big.id]: { keepRuns: 100 } },
  });
  await shot(page, testInfo, "retention-settings");
});
