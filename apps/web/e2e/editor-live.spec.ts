import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, type Page, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { trpc } from "./support/server";
import { sharedServer } from "./support/shared-server";
import { shot } from "./support/shot";

const run = promisify(execFile);

const shared = sharedServer();
test.use({ viewport: { width: 1600, height: 900 } });

const settings = { timezone: "UTC", maxRunMs: 300000, concurrency: 4 };
const n = (id: string, type: string, x: number, config: Record<string, unknown>) => ({
  id,
  type,
  typeVersion: 1,
  name: id,
  config,
  position: { x, y: 200 },
  onError: "stop",
});

/** webhook (sync) → data.set → webhook.respond, on a path unique to the test. */
function hookFlow(path: string) {
  return {
    nodes: [
      n("hook", "trigger.webhook", 0, { path, responseMode: "sync" }),
      n("set", "data.set", 320, {
        fields: [
          { name: "greeting", value: "='Hello ' & item.body.name" },
          { name: "doubled", value: "=item.body.n * 2" },
        ],
      }),
      n("respond", "webhook.respond", 640, { status: 201 }),
    ],
    edges: [
      { from: { node: "hook", port: "main" }, to: { node: "set", port: "main" } },
      { from: { node: "set", port: "main" }, to: { node: "respond", port: "main" } },
    ],
    settings,
  };
}

/** POSTs JSON with the real curl binary, as someone outside the app would; returns status and body. */
async function curl(url: string, body: unknown): Promise<{ status: number; body: string }> {
  const { stdout } = await run("curl", [
    "-sS",
    "-X",
    "POST",
    "-H",
    "content-type: application/json",
    "-d",
    JSON.stringify(body),
    "-w",
    "\n%{http_code}",
    url,
  ]);
  const at = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
}

async function openEditor(page: Page, id: string) {
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows/${id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
}
const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id='${id}']`);

test("[3] a webhook called with curl shows up live in the open editor: step statuses and each node's output", async ({
  page,
}, testInfo) => {
  const path = `live/${testInfo.testId}`;
  const { id } = await trpc<{ id: string }>(
    shared.server.url,
    "flow.create",
    { name: "Live webhook", definition: hookFlow(path) },
    "mutation",
  );
  await openEditor(page, id);
  await expect(page.getByTestId("live-run")).toHaveCount(0);

  await page.getByLabel("Active", { exact: true }).click();
  await expect(page.getByLabel("Active", { exact: true })).toBeChecked();
  await expect(page.getByTestId("notice")).toContainText("the trigger is listening");

  const answer = await curl(`${shared.server.url}/hooks/${path}`, { name: "Ada", n: 21 });
  expect(answer.status).toBe(201);
  expect(JSON.parse(answer.body)).toMatchObject({
    body: { name: "Ada", n: 21 },
    greeting: "Hello Ada",
    doubled: 42,
  });

  // The editor picks the run up by itself: nothing was clicked since activating.
  for (const nid of ["hook", "set", "respond"])
    await expect(node(page, nid).getByTestId("node-status")).toHaveText("succeeded", { timeout: 15_000 });
  const indicator = page.getByTestId("live-run");
  await expect(indicator).toHaveAttribute("data-status", "succeeded");
  const runs = await trpc<{ runs: { id: string; channel: string }[] }>(shared.server.url, "run.list", {
    flowId: id,
    limit: 1,
  });
  expect(runs.runs[0]?.channel).toBe("webhook");
  await expect(indicator).toHaveAttribute("href", `/runs/${runs.runs[0]?.id}`);

  await node(page, "set").click();
  const data = page.getByTestId("node-run-data");
  await expect(data.getByTestId("node-run-status")).toHaveText("succeeded");
  await expect(data.getByTestId("node-run-input")).toContainText("1 item");
  const output = data.getByTestId("node-run-output-main");
  await expect(output).toContainText("Output · main · 1 item");
  await expect(output).toContainText('"Hello Ada"');
  await expect(output).toContainText("42");
  await shot(page, testInfo, "live-webhook-run", { fullPage: false });

  // A second call replaces what is shown: the editor always follows the newest run.
  await curl(`${shared.server.url}/hooks/${path}`, { name: "Grace", n: 1 });
  await expect(output).toContainText('"Hello Grace"', { timeout: 15_000 });
  await expect(indicator).not.toHaveAttribute("href", `/runs/${runs.runs[0]?.id}`);

  // The trigger's own output is the request as the webhook received it.
  await node(page, "hook").click();
  const request = page.getByTestId("node-run-output-main");
  await expect(request).toContainText(`path: "/hooks/${path}"`);
  // Nested fields start collapsed; searching opens the path to the hit.
  await request.getByPlaceholder("Search keys and values").fill("Grace");
  await expect(request).toContainText('name: "Grace"');
});

test("[listen] a test event sent with curl appears in the webhook panel and becomes the payload Run sends", async ({
  page,
}, testInfo) => {
  const path = `listen/${testInfo.testId}`;
  const def = hookFlow(path);
  // No Respond node: a manual run has no HTTP caller to answer.
  const flow = { ...def, nodes: def.nodes.slice(0, 2), edges: def.edges.slice(0, 1) };
  const { id } = await trpc<{ id: string }>(
    shared.server.url,
    "flow.create",
    { name: "Listen", definition: flow },
    "mutation",
  );
  await openEditor(page, id);
  await node(page, "hook").click();
  const testUrl = `${shared.server.url}/hooks-test/${path}`;
  await expect(page.getByTestId("url-test-url")).toHaveText(testUrl);

  // Before listening nothing is bound there.
  expect((await curl(testUrl, {})).status).toBe(404);
  await page.getByRole("button", { name: "Listen for test event" }).click();
  await expect(page.getByTestId("listen-waiting")).toContainText(testUrl);
  await shot(page, testInfo, "listening", { fullPage: false });
  // The bind happens on the server once the request lands; until then the URL still answers 404.
  await expect
    .poll(async () => (await curl(testUrl, { name: "Linus", n: 5 })).status, { timeout: 10_000 })
    .toBe(200);

  const payload = page.getByTestId("test-event-payload");
  await expect(payload).toContainText('method: "POST"');
  await payload.getByPlaceholder("Search keys and values").fill("Linus");
  await expect(payload).toContainText('name: "Linus"');
  await expect(page.getByTestId("listen-waiting")).toHaveCount(0);
  // One event only: the test URL is unbound again, and nothing ran.
  expect((await curl(testUrl, {})).status).toBe(404);
  expect((await trpc<{ runs: unknown[] }>(shared.server.url, "run.list", { flowId: id })).runs).toEqual([]);

  await page.getByRole("button", { name: "Use as sample payload" }).click();
  await expect(page.getByTestId("sample-pinned")).toBeVisible();
  await expect(page.getByTestId("unsaved")).toBeVisible();
  await shot(page, testInfo, "test-event-payload", { fullPage: false });

  // Run saves first, then sends the pinned payload: the Set node computes from the captured body.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("notice")).toContainText("Run succeeded", { timeout: 20_000 });
  const saved = await trpc<{
    version: { definition: { nodes: { id: string; config: Record<string, unknown> }[] } };
  }>(shared.server.url, "flow.get", { id });
  expect(saved.version.definition.nodes[0]?.config.samplePayload).toMatchObject({
    method: "POST",
    body: { name: "Linus", n: 5 },
  });
  await node(page, "set").click();
  await expect(page.getByTestId("node-run-output-main")).toContainText('greeting: "Hello Linus"');
  await expect(page.getByTestId("node-run-output-main")).toContainText("doubled: 10");
  await expect(page.getByTestId("live-run")).toHaveAttribute("data-status", "succeeded");
});

test("the flows list shows trigger health and the last run of active flows only", async ({
  page,
}, testInfo) => {
  const path = `list/${testInfo.testId}`;
  const active = await trpc<{ id: string }>(
    shared.server.url,
    "flow.create",
    { name: `Health active ${testInfo.testId}`, definition: hookFlow(path) },
    "mutation",
  );
  await trpc(shared.server.url, "flow.setActive", { id: active.id, active: true }, "mutation");
  const idle = await trpc<{ id: string }>(
    shared.server.url,
    "flow.create",
    { name: `Health idle ${testInfo.testId}`, definition: hookFlow(`${path}-idle`) },
    "mutation",
  );
  expect((await curl(`${shared.server.url}/hooks/${path}`, { name: "Edsger", n: 0 })).status).toBe(201);
  const [last] = (
    await trpc<{ runs: { id: string }[] }>(shared.server.url, "run.list", { flowId: active.id, limit: 1 })
  ).runs;

  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows`);
  const row = page.getByTestId("flow-row").filter({ hasText: `Health active ${testInfo.testId}` });
  await expect(row.getByTestId("trigger-health")).toHaveText("listening");
  await expect(row.getByTestId("trigger-health")).toHaveAttribute("title", /last event/);
  await expect(row.getByTestId("last-run")).toContainText("succeeded");
  await expect(row.getByTestId("last-run")).toHaveAttribute("href", `/runs/${last?.id}`);
  const idleRow = page.getByTestId("flow-row").filter({ hasText: `Health idle ${testInfo.testId}` });
  await expect(idleRow.getByRole("link", { name: `Health idle ${testInfo.testId}` })).toHaveAttribute(
    "href",
    `/flows/${idle.id}`,
  );
  await expect(idleRow).toContainText("Inactive");
  await expect(idleRow.getByTestId("trigger-health")).toHaveCount(0);
  await expect(idleRow.getByTestId("last-run")).toHaveCount(0);
  await shot(page, testInfo, "flows-list-health", { fullPage: false });

  // Deactivating from the list drops the badges (the checkbox follows the server's answer).
  await row.getByRole("checkbox").click();
  await expect(row.getByRole("checkbox")).not.toBeChecked();
  await expect(row.getByTestId("trigger-health")).toHaveCount(0);
  await expect(row.getByTestId("last-run")).toHaveCount(0);
  expect(
    (await trpc<{ flow: { active: boolean } }>(shared.server.url, "flow.get", { id: active.id })).flow.active,
  ).toBe(false);
});
