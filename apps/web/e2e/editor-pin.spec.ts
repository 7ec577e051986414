import { createServer, type Server } from "node:http";
import { expect, type Page, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { trpc } from "./support/server";
import { sharedServer } from "./support/shared-server";

const shared = sharedServer();
test.use({ viewport: { width: 1600, height: 900 } });

/** An upstream API that counts its hits and answers with the hit number, so a reused answer shows. */
let upstream: Server;
let upstreamUrl: string;
let hits = 0;
test.beforeAll(async () => {
  upstream = createServer((_req, res) => {
    hits++;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ customer: `Ada-${hits}` }));
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/customers/42`;
});
test.afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

const definition = () => ({
  nodes: [
    { id: "start", type: "trigger.manual", position: { x: 0, y: 200 } },
    { id: "crm", type: "http.request", config: { url: upstreamUrl }, position: { x: 320, y: 200 } },
    {
      id: "after",
      type: "data.set",
      config: { fields: [{ name: "customer", value: "=item.body.customer" }], keepOnlySet: true },
      position: { x: 640, y: 200 },
    },
  ],
  edges: [
    { from: { node: "start", port: "main" }, to: { node: "crm", port: "main" } },
    { from: { node: "crm", port: "main" }, to: { node: "after", port: "main" } },
  ],
});

type RunList = { runs: { id: string; status: string; channel: string }[] };
type Trace = { steps: { nodeId: string; status: string; reason: string | null }[] };
const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id='${id}']`);
const editorDefinition = (page: Page) =>
  page.evaluate(() =>
    (
      window as unknown as {
        __switchyardEditor: {
          definition(): { pinData?: Record<string, { json: Record<string, unknown> }[]> };
        };
      }
    ).__switchyardEditor.definition(),
  );
const history = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __switchyardEditor: { history(): number } }).__switchyardEditor.history(),
  );

let flowId: string;
let firstRunId: string;

test("a pinned http.request output is reused by the next editor run: the upstream sees no second request", async ({
  page,
}) => {
  await trpc(shared.server.url, "settings.network.set", { allowHosts: ["127.0.0.1"] }, "mutation");
  ({ id: flowId } = await trpc<{ id: string }>(
    shared.server.url,
    "flow.create",
    { name: "Pinned lookup", definition: definition() },
    "mutation",
  ));
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows/${flowId}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");

  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("live-run")).toHaveAttribute("data-status", "succeeded", { timeout: 20_000 });
  expect(hits).toBe(1);
  firstRunId = (await trpc<RunList>(shared.server.url, "run.list", { flowId, limit: 1 })).runs[0]!.id;

  // Pin the node's output from its last run data.
  await node(page, "crm").click();
  await expect(page.getByTestId("node-run-output-main")).toContainText("1 item");
  await expect(node(page, "crm").getByTestId("node-pinned")).toHaveCount(0);
  await page.getByTestId("pin-output").click();
  await expect(node(page, "crm").getByTestId("node-pinned")).toBeVisible();
  await expect(page.getByTestId("pinned-data")).toContainText("Output pinned · 1 item");
  expect((await editorDefinition(page)).pinData?.crm?.[0]?.json).toMatchObject({
    status: 200,
    body: { customer: "Ada-1" },
  });
  await expect(page.getByTestId("unsaved")).toBeVisible();

  // Run again: Run saves first (the pin is part of the flow) and the node answers from its pin.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("live-run")).not.toHaveAttribute("href", `/runs/${firstRunId}`, {
    timeout: 20_000,
  });
  await expect(page.getByTestId("live-run")).toHaveAttribute("data-status", "succeeded", { timeout: 20_000 });
  expect(hits).toBe(1);
  const second = (await trpc<RunList>(shared.server.url, "run.list", { flowId, limit: 1 })).runs[0]!;
  expect(second).toMatchObject({ status: "succeeded", channel: "manual" });
  const trace = await trpc<Trace>(shared.server.url, "run.get", { id: second.id });
  expect(trace.steps.find((s) => s.nodeId === "crm")).toMatchObject({
    status: "succeeded",
    reason: "pinned",
  });
  await node(page, "after").click();
  await expect(page.getByTestId("node-run-output-main")).toContainText('"Ada-1"');
  const saved = await trpc<{ version: { definition: { pinData?: Record<string, unknown> } } }>(
    shared.server.url,
    "flow.get",
    { id: flowId },
  );
  expect(Object.keys(saved.version.definition.pinData ?? {})).toEqual(["crm"]);

  // Unpin, and the next editor run calls the API again.
  await node(page, "crm").click();
  await page.getByTestId("unpin-output").click();
  await expect(node(page, "crm").getByTestId("node-pinned")).toHaveCount(0);
  expect((await editorDefinition(page)).pinData).toBeUndefined();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("live-run")).not.toHaveAttribute("href", `/runs/${second.id}`, {
    timeout: 20_000,
  });
  await expect(page.getByTestId("live-run")).toHaveAttribute("data-status", "succeeded", { timeout: 20_000 });
  expect(hits).toBe(2);
});

test("the runs page's “Open in editor with this data” pins every succeeded step of that run as one undo step", async ({
  page,
}) => {
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/runs/${firstRunId}`);
  await page.getByRole("link", { name: "Open in editor with this data" }).click();
  await expect(page).toHaveURL(new RegExp(`/flows/${flowId}$`), { timeout: 20_000 });
  await expect(page.getByTestId("notice")).toContainText(`Pinned data from run ${firstRunId}`);
  for (const id of ["start", "crm", "after"])
    await expect(node(page, id).getByTestId("node-pinned")).toBeVisible();
  const pins = (await editorDefinition(page)).pinData ?? {};
  expect(pins.crm?.[0]?.json).toMatchObject({ body: { customer: "Ada-1" } });
  expect(pins.after).toEqual([{ json: { customer: "Ada-1" } }]);
  expect(await history(page)).toBe(1);

  // One undo removes all of them again.
  await page.keyboard.press("Control+z");
  for (const id of ["start", "crm", "after"])
    await expect(node(page, id).getByTestId("node-pinned")).toHaveCount(0);
  expect((await editorDefinition(page)).pinData).toBeUndefined();
});
