import { createServer, type Server } from "node:http";
import { expect, type Page, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { trpc } from "./support/server";
import { sharedServer } from "./support/shared-server";

const shared = sharedServer();
test.use({ viewport: { width: 1600, height: 900 } });

/** Counts hits per path; `/flaky` answers 500 while `flaky` is set. */
let upstream: Server;
let base: string;
const hits = new Map<string, number>();
let flaky = false;
test.beforeAll(async () => {
  upstream = createServer((req, res) => {
    const path = req.url ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    res.writeHead(path === "/flaky" && flaky ? 500 : 200, { "content-type": "application/json" });
    res.end(JSON.stringify({ path, n: hits.get(path) }));
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
});
test.afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

const call = (id: string, path: string, x: number) => ({
  id,
  type: "http.request",
  config: { url: `${base}${path}`, retries: 0 },
  position: { x, y: 200 },
});
const definition = () => ({
  nodes: [
    { id: "start", type: "trigger.manual", position: { x: 0, y: 200 } },
    call("crm", "/crm", 300),
    call("flaky", "/flaky", 600),
    {
      id: "after",
      type: "data.set",
      config: { fields: [{ name: "n", value: "=item.body.n" }], keepOnlySet: true },
      position: { x: 900, y: 200 },
    },
  ],
  edges: [
    { from: { node: "start" }, to: { node: "crm" } },
    { from: { node: "crm" }, to: { node: "flaky" } },
    { from: { node: "flaky" }, to: { node: "after" } },
  ],
});

type RunList = { runs: { id: string; status: string; channel: string }[] };
type Trace = {
  status: string;
  stepMode: string | null;
  rerunOf: string | null;
  steps: { nodeId: string; status: string; reason: string | null }[];
};
const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id='${id}']`);
const newest = async (flowId: string) =>
  (await trpc<RunList>(shared.server.url, "run.list", { flowId, limit: 1 })).runs[0]!;
const executed = (t: Trace) =>
  t.steps.filter((s) => s.reason !== "reused").map((s) => `${s.nodeId}:${s.status}`);

let flowId: string;

test("“Run this node” runs only that node on the last run's input; “Run up to here” stops at the node", async ({
  page,
}) => {
  await trpc(shared.server.url, "settings.network.set", { allowHosts: ["127.0.0.1"] }, "mutation");
  ({ id: flowId } = await trpc<{ id: string }>(
    shared.server.url,
    "flow.create",
    { name: "Lookup", definition: definition() },
    "mutation",
  ));
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows/${flowId}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");

  // Before any run, the last node has no input to run on: the refusal says what to do.
  await node(page, "after").click();
  await page.getByRole("button", { name: "Run this node" }).click();
  await expect(page.getByRole("alert").filter({ hasText: 'node "after" has no input yet' })).toBeVisible();

  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("live-run")).toHaveAttribute("data-status", "succeeded", { timeout: 20_000 });
  const whole = await newest(flowId);
  expect([...hits]).toEqual([
    ["/crm", 1],
    ["/flaky", 1],
  ]);

  await node(page, "flaky").click();
  await page.getByRole("button", { name: "Run this node" }).click();
  await expect(page.getByTestId("live-run")).not.toHaveAttribute("href", `/runs/${whole.id}`, {
    timeout: 20_000,
  });
  await expect(page.getByTestId("live-run")).toHaveAttribute("data-status", "succeeded", { timeout: 20_000 });
  const one = await newest(flowId);
  const oneTrace = await trpc<Trace>(shared.server.url, "run.get", { id: one.id });
  expect(oneTrace).toMatchObject({ stepMode: "node", rerunOf: whole.id });
  expect(executed(oneTrace)).toEqual(["flaky:succeeded"]);
  expect([...hits]).toEqual([
    ["/crm", 1],
    ["/flaky", 2],
  ]);

  await node(page, "crm").click();
  await page.getByRole("button", { name: "Run up to here" }).click();
  await expect(page.getByTestId("live-run")).not.toHaveAttribute("href", `/runs/${one.id}`, {
    timeout: 20_000,
  });
  await expect(page.getByTestId("live-run")).toHaveAttribute("data-status", "succeeded", { timeout: 20_000 });
  const upTo = await trpc<Trace>(shared.server.url, "run.get", { id: (await newest(flowId)).id });
  expect(executed(upTo)).toEqual(["start:succeeded", "crm:succeeded"]);
  expect([...hits]).toEqual([
    ["/crm", 2],
    ["/flaky", 2],
  ]);
});

test("a failed run is retried from the failed step as a linked run that does not call the steps before it again", async ({
  page,
}) => {
  flaky = true;
  const { runId } = await trpc<{ runId: string }>(shared.server.url, "flow.run", { id: flowId }, "mutation");
  await expect.poll(async () => (await newest(flowId)).status, { timeout: 20_000 }).toBe("failed");
  const crmCalls = hits.get("/crm");

  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/runs/${runId}`);
  await expect(page.getByTestId("run-status")).toContainText("failed");
  flaky = false;
  await page.getByRole("button", { name: "Retry from flaky" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${runId}$`), { timeout: 20_000 });
  await expect(page.getByTestId("run-status")).toContainText("succeeded", { timeout: 20_000 });
  await expect(page.getByTestId("rerun-of")).toContainText(`retry from flaky of ${runId}`);
  const retryId = page.url().split("/runs/")[1]!;
  const trace = await trpc<Trace>(shared.server.url, "run.get", { id: retryId });
  expect(trace).toMatchObject({ stepMode: "retry", rerunOf: runId, status: "succeeded" });
  expect(trace.steps.filter((s) => s.reason === "reused").map((s) => s.nodeId)).toEqual(["start", "crm"]);
  expect(executed(trace)).toEqual(["flaky:succeeded", "after:succeeded"]);
  expect(hits.get("/crm")).toBe(crmCalls);

  // The reused step says so in the trace; the failed run links to its retry.
  await node(page, "crm").click();
  await expect(page.getByTestId("step-reused")).toBeVisible();
  await page.goto(`${shared.server.url}/runs/${runId}`);
  await expect(page.getByTestId("reruns")).toContainText(retryId.slice(-8));
});
