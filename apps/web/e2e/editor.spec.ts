import { rmSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { type RunningServer, startServer, tempDataDir, trpc } from "./support/server";

// One server for the file: every test makes its own flows on it.
let server: RunningServer;
let dir: string;
test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1600, height: 900 } });
test.beforeAll(async () => {
  dir = tempDataDir();
  server = await startServer(dir);
});
test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Definition = { nodes: { id: string; type: string; config: Record<string, unknown>; position: { x: number; y: number } }[]; edges: { from: { node: string; port: string }; to: { node: string; port: string } }[] };
const settings = { timezone: "UTC", maxRunMs: 300000, concurrency: 4 };

async function createFlow(name: string, definition: unknown = { nodes: [], edges: [], settings }) {
  return trpc<{ id: string }>(server.url, "flow.create", { name, definition }, "mutation");
}
const savedDefinition = async (id: string) => (await trpc<{ version: { version: number; definition: Definition } }>(server.url, "flow.get", { id })).version;
const editorDefinition = (page: Page) => page.evaluate(() => (window as unknown as { __switchyardEditor: { definition(): Definition } }).__switchyardEditor.definition());

async function openEditor(page: Page, id: string) {
  await useSession(page, server.url);
  await page.goto(`${server.url}/flows/${id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id='${id}']`);

/** Drags a palette entry onto the canvas at (x, y) relative to the pane. */
async function dropFromPalette(page: Page, type: string, x: number, y: number) {
  await page.getByTestId(`palette-${type}`).dragTo(page.locator(".react-flow__pane"), { targetPosition: { x, y } });
}

/** Connects two handles with the mouse, as a person does. */
async function connectHandles(page: Page, from: string, fromPort: string, to: string, toPort = "main") {
  const a = await node(page, from).locator(`.react-flow__handle.source[data-handleid='${fromPort}']`).boundingBox();
  const b = await node(page, to).locator(`.react-flow__handle.target[data-handleid='${toPort}']`).boundingBox();
  if (!a || !b) throw new Error(`handle not found: ${from}.${fromPort} → ${to}.${toPort}`);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
  await page.mouse.up();
}

/** Drags from an output handle onto another node's body (used for refused connections). */
async function dragHandleOntoNode(page: Page, from: string, fromPort: string, to: string) {
  const a = await node(page, from).locator(`.react-flow__handle.source[data-handleid='${fromPort}']`).boundingBox();
  const b = await node(page, to).boundingBox();
  if (!a || !b) throw new Error("element not found");
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + 16, { steps: 10 });
  await page.mouse.up();
}

async function shot(page: Page, testInfo: import("@playwright/test").TestInfo, name: string) {
  await testInfo.attach(name, { body: await page.screenshot(), contentType: "image/png" });
}

test("[1] builds webhook → if → http → respond from the palette by mouse, saves, and reloads identical", async ({ page }, testInfo) => {
  const { id } = await createFlow("Built by mouse");
  await openEditor(page, id);
  await expect(page.getByText("Start with a trigger")).toBeVisible();
  await shot(page, testInfo, "empty-flow");

  await dropFromPalette(page, "trigger.webhook", 130, 220);
  await dropFromPalette(page, "logic.if", 380, 220);
  await dropFromPalette(page, "http.request", 600, 80);
  await dropFromPalette(page, "webhook.respond", 600, 400);
  for (const nid of ["webhook", "if", "request", "respond"]) await expect(node(page, nid)).toBeVisible();

  await connectHandles(page, "webhook", "main", "if");
  await connectHandles(page, "if", "true", "request");
  await connectHandles(page, "request", "main", "respond");
  await expect(page.locator(".react-flow__edge")).toHaveCount(3);

  // Refused connections say why.
  await dragHandleOntoNode(page, "respond", "main", "webhook");
  await expect(page.getByTestId("notice")).toContainText("is a trigger");
  await dragHandleOntoNode(page, "request", "main", "request");
  await expect(page.getByTestId("notice")).toContainText("cannot connect to itself");
  await connectHandles(page, "webhook", "main", "if");
  await expect(page.getByTestId("notice")).toContainText("already connected");
  await expect(page.locator(".react-flow__edge")).toHaveCount(3);

  // Configure through the generated forms.
  await node(page, "webhook").click();
  await page.getByLabel("Path", { exact: true }).fill("orders/created");
  await page.getByLabel("Response mode", { exact: true }).selectOption({ label: "sync" });
  await expect(page.getByTestId("url-production-url")).toHaveText(/\/hooks\/orders\/created$/);
  await expect(page.getByTestId("url-test-url")).toHaveText(/\/hooks-test\/orders\/created$/);
  await shot(page, testInfo, "webhook-config");

  await node(page, "if").click();
  await page.getByLabel("Condition", { exact: true }).fill("=item.total > 100");
  await node(page, "request").click();
  await page.getByLabel("Method", { exact: true }).selectOption({ label: "POST" });
  await page.getByLabel("URL", { exact: true }).fill("https://example.com/orders");
  await page.getByRole("button", { name: "+ Add headers entry" }).click();
  await page.getByLabel("Headers key 1", { exact: true }).fill("x-source");
  await page.getByLabel("Headers key 1", { exact: true }).blur();
  await node(page, "respond").click();
  await page.getByLabel("Status", { exact: true }).fill("201");
  await page.getByLabel("Body", { exact: true }).fill('={ "ok": true, "order": nodes.webhook }');
  await page.locator(".react-flow__pane").click({ position: { x: 50, y: 50 } });
  await shot(page, testInfo, "configured-flow");

  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("saved")).toBeVisible();
  const saved = await savedDefinition(id);
  expect(saved.version).toBe(2);
  expect(saved.definition).toEqual(await editorDefinition(page));
  expect(saved.definition.nodes.map((n) => n.type)).toEqual(["trigger.webhook", "logic.if", "http.request", "webhook.respond"]);
  expect(saved.definition.edges).toEqual([
    { from: { node: "webhook", port: "main" }, to: { node: "if", port: "main" } },
    { from: { node: "if", port: "true" }, to: { node: "request", port: "main" } },
    { from: { node: "request", port: "main" }, to: { node: "respond", port: "main" } },
  ]);
  expect(saved.definition.nodes.find((n) => n.id === "request")?.config).toEqual({
    method: "POST",
    url: "https://example.com/orders",
    headers: { "x-source": "" },
  });

  await page.reload();
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
  expect(await editorDefinition(page)).toEqual(saved.definition);
  await page.keyboard.press("Control+s");
  await expect.poll(async () => (await savedDefinition(id)).version).toBe(3);
  expect((await savedDefinition(id)).definition).toEqual(saved.definition);
  await shot(page, testInfo, "after-reload");
});
