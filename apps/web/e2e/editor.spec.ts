import { expect, type Page, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { trpc } from "./support/server";
import { sharedServer } from "./support/shared-server";
import { shot } from "./support/shot";

// One server for the file: every test makes its own flows on it.
const shared = sharedServer();
test.use({ viewport: { width: 1600, height: 900 } });

type Definition = {
  nodes: { id: string; type: string; config: Record<string, unknown>; position: { x: number; y: number } }[];
  edges: { from: { node: string; port: string }; to: { node: string; port: string } }[];
};
const settings = { timezone: "UTC", maxRunMs: 300000, concurrency: 4 };

async function createFlow(name: string, definition: unknown = { nodes: [], edges: [], settings }) {
  return trpc<{ id: string }>(shared.server.url, "flow.create", { name, definition }, "mutation");
}
const savedDefinition = async (id: string) =>
  (
    await trpc<{ version: { version: number; definition: Definition } }>(shared.server.url, "flow.get", {
      id,
    })
  ).version;
const editorDefinition = (page: Page) =>
  page.evaluate(() =>
    (
      window as unknown as { __switchyardEditor: { definition(): Definition } }
    ).__switchyardEditor.definition(),
  );

async function openEditor(page: Page, id: string) {
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows/${id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id='${id}']`);

/** Drags a palette entry onto the canvas at (x, y) relative to the pane. */
async function dropFromPalette(page: Page, type: string, x: number, y: number) {
  await page
    .getByTestId(`palette-${type}`)
    .dragTo(page.locator(".react-flow__pane"), { targetPosition: { x, y } });
}

/**
 * Waits until the canvas stops moving: adding a node pans to it for 200 ms, and a box read mid-pan sends
 * the mouse somewhere else (a drag that moves a node instead of connecting, say).
 */
async function viewportSettled(page: Page) {
  const transform = () =>
    page.locator(".react-flow__viewport").evaluate((el) => getComputedStyle(el).transform);
  let last = await transform();
  for (let i = 0; i < 50; i++) {
    await page.waitForTimeout(50);
    const now = await transform();
    if (now === last) return;
    last = now;
  }
  throw new Error("the canvas kept moving for 2.5 s");
}

/** Connects two handles with the mouse, as a person does. */
async function connectHandles(page: Page, from: string, fromPort: string, to: string, toPort = "main") {
  const edgeCount = async () => (await editorDefinition(page)).edges.length;
  const before = await edgeCount();
  // A drag that starts while React Flow is still re-measuring a just-added node can be lost: try twice.
  for (let attempt = 0; attempt < 2; attempt++) {
    await viewportSettled(page);
    const a = await node(page, from)
      .locator(`.react-flow__handle.source[data-handleid='${fromPort}']`)
      .boundingBox();
    const b = await node(page, to)
      .locator(`.react-flow__handle.target[data-handleid='${toPort}']`)
      .boundingBox();
    if (!a || !b) throw new Error(`handle not found: ${from}.${fromPort} → ${to}.${toPort}`);
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 6, a.y + a.height / 2 + 6, { steps: 3 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.move(b.x + b.width / 2 + 1, b.y + b.height / 2, { steps: 2 });
    await page.mouse.up();
    const connected = await expect
      .poll(edgeCount, { timeout: 2_000 })
      .toBeGreaterThan(before)
      .then(() => true)
      .catch(() => false);
    if (connected) return;
  }
}

/** Drags from an output handle onto another node's body (used for refused connections). */
async function dragHandleOntoNode(page: Page, from: string, fromPort: string, to: string) {
  const a = await node(page, from)
    .locator(`.react-flow__handle.source[data-handleid='${fromPort}']`)
    .boundingBox();
  const b = await node(page, to).boundingBox();
  if (!a || !b) throw new Error("element not found");
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + 16, { steps: 10 });
  await page.mouse.up();
}

test("[1] builds webhook → if → http → respond from the palette by mouse, saves, and reloads identical", async ({
  page,
}, testInfo) => {
  const { id } = await createFlow("Built by mouse");
  await openEditor(page, id);
  await expect(page.getByText("Start with a trigger")).toBeVisible();
  await shot(page, testInfo, "empty-flow", { fullPage: false });

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
  await shot(page, testInfo, "webhook-config", { fullPage: false });

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
  await shot(page, testInfo, "configured-flow", { fullPage: false });

  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("saved")).toBeVisible();
  const saved = await savedDefinition(id);
  expect(saved.version).toBe(2);
  expect(saved.definition).toEqual(await editorDefinition(page));
  expect(saved.definition.nodes.map((n) => n.type)).toEqual([
    "trigger.webhook",
    "logic.if",
    "http.request",
    "webhook.respond",
  ]);
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
  await shot(page, testInfo, "after-reload", { fullPage: false });
});

/** A trigger → request → b → c chain, for edit and clipboard tests. */
function chainFlow(url = "https://example.com/items") {
  const n = (id: string, type: string, x: number, config: Record<string, unknown> = {}) => ({
    id,
    type,
    typeVersion: 1,
    name: id,
    config,
    position: { x, y: 200 },
    onError: "stop",
  });
  return {
    nodes: [
      n("trigger", "trigger.manual", 0),
      n("request", "http.request", 320, { url }),
      n("b", "flow.noop", 640),
      n("c", "flow.noop", 960),
    ],
    edges: [
      { from: { node: "trigger", port: "main" }, to: { node: "request", port: "main" } },
      { from: { node: "request", port: "main" }, to: { node: "b", port: "main" } },
      { from: { node: "b", port: "main" }, to: { node: "c", port: "main" } },
    ],
    settings,
    notes: [],
  };
}
const history = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __switchyardEditor: { history(): number } }).__switchyardEditor.history(),
  );

async function dragNode(page: Page, id: string, dx: number, dy: number) {
  await viewportSettled(page);
  const box = await node(page, id).boundingBox();
  if (!box) throw new Error(`node ${id} not visible`);
  await page.mouse.move(box.x + 60, box.y + 14);
  await page.mouse.down();
  await page.mouse.move(box.x + 60 + dx, box.y + 14 + dy, { steps: 10 });
  await page.mouse.up();
}
const clearSelection = (page: Page) =>
  page.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });

test("[2] undo/redo walks back and forth through 20 mixed edits exactly", async ({ page }, testInfo) => {
  const { id } = await createFlow("Undo me", chainFlow());
  await openEditor(page, id);
  const field = (label: string) => page.getByLabel(label, { exact: true });
  const edits: [string, () => Promise<unknown>][] = [
    [
      "url",
      async () => {
        await node(page, "request").click();
        await field("URL").fill("https://example.com/other");
        await field("URL").blur();
      },
    ],
    ["method", () => field("Method").selectOption({ label: "POST" })],
    ["onError", () => field("On error").selectOption("continue")],
    [
      "name",
      async () => {
        await field("Node name").fill("Fetch items");
        await field("Node name").blur();
      },
    ],
    ["move b", () => dragNode(page, "b", 40, 60)],
    [
      "add after b",
      async () => {
        await node(page, "b").click();
        await page.getByTestId("palette-flow.noop").click();
      },
    ],
    [
      "delete it",
      async () => {
        await clearSelection(page);
        await node(page, "noop").click();
        await page.keyboard.press("Delete");
      },
    ],
    [
      "add loose",
      async () => {
        await clearSelection(page);
        await page.getByTestId("palette-flow.noop").click();
      },
    ],
    ["connect", () => connectHandles(page, "c", "main", "noop")],
    [
      "duplicate",
      async () => {
        await clearSelection(page);
        await node(page, "c").click();
        await page.keyboard.press("Control+d");
      },
    ],
    [
      "note",
      async () => {
        await clearSelection(page);
        await page.keyboard.press("n");
      },
    ],
    [
      "layout",
      async () => {
        await clearSelection(page);
        await page.keyboard.press("l");
      },
    ],
    [
      "attempts",
      async () => {
        await node(page, "request").click();
        await field("Attempts").fill("3");
        await field("Attempts").blur();
      },
    ],
    [
      "timeout",
      async () => {
        await field("Time limit (ms)").fill("5000");
        await field("Time limit (ms)").blur();
      },
    ],
    ["disable", () => page.getByLabel("Disabled (items pass through untouched)").check()],
    [
      "move trigger",
      async () => {
        await clearSelection(page);
        await dragNode(page, "trigger", -30, 80);
      },
    ],
    [
      "timezone",
      async () => {
        await clearSelection(page);
        await field("Time zone").fill("Europe/Berlin");
        await field("Time zone").blur();
      },
    ],
    [
      "concurrency",
      async () => {
        await field("Parallel nodes").fill("8");
        await field("Parallel nodes").blur();
      },
    ],
    [
      "rename id",
      async () => {
        await node(page, "c").click();
        await field("Node id").fill("last");
        await field("Node id").press("Enter");
      },
    ],
    [
      "move renamed",
      async () => {
        await clearSelection(page);
        await dragNode(page, "last", 50, -40);
      },
    ],
  ];
  const states = [await editorDefinition(page)];
  for (const [what, edit] of edits) {
    const before = await history(page);
    await edit();
    // Every edit is exactly one undo step.
    await expect.poll(() => history(page), { message: `history after "${what}"` }).toBe(before + 1);
    states.push(await editorDefinition(page));
    expect(states.at(-1), `"${what}" changed the flow`).not.toEqual(states.at(-2));
  }
  await shot(page, testInfo, "after-20-edits", { fullPage: false });
  await clearSelection(page);
  for (let i = edits.length - 1; i >= 0; i--) {
    await page.keyboard.press("Control+z");
    expect(await editorDefinition(page), `undo back to before "${edits[i]?.[0]}"`).toEqual(states[i]);
  }
  for (let i = 1; i <= edits.length; i++) {
    await page.keyboard.press("Control+Shift+z");
    expect(await editorDefinition(page), `redo "${edits[i - 1]?.[0]}"`).toEqual(states[i]);
  }
});

test("[2] copy/paste of 3 connected nodes keeps edges and configs, also into another flow", async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: shared.server.url });
  const source = await createFlow("Copy from", chainFlow("https://example.com/copied"));
  const target = await createFlow("Paste into", {
    nodes: [
      {
        id: "trigger",
        type: "trigger.manual",
        typeVersion: 1,
        name: "Manual",
        config: {},
        position: { x: 0, y: 0 },
        onError: "stop",
      },
    ],
    edges: [],
    settings,
  });
  await openEditor(page, source.id);
  // The flow opens at a readable zoom from its trigger; "f" fits it whole, so all three nodes are in reach.
  await page.keyboard.press("f");
  await viewportSettled(page);
  await node(page, "request").click();
  await node(page, "b").click({ modifiers: ["Control"] });
  await node(page, "c").click({ modifiers: ["Control"] });
  await expect(page.getByTestId("selection-panel")).toContainText("3 nodes");
  await page.keyboard.press("Control+c");

  await page.goto(`${shared.server.url}/flows/${target.id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
  await clearSelection(page);
  await page.keyboard.press("Control+v");
  await expect.poll(async () => (await editorDefinition(page)).nodes.length).toBe(4);
  for (const nid of ["request", "b", "c"]) await expect(node(page, nid)).toBeVisible();
  const pasted = await editorDefinition(page);
  const original = chainFlow("https://example.com/copied");
  expect(pasted.nodes.slice(1).map((n) => [n.id, n.type, n.config])).toEqual(
    original.nodes.slice(1).map((n) => [n.id, n.type, n.config]),
  );
  expect(pasted.edges).toEqual(original.edges.slice(1));
  // Pasting again into the same flow renames the copies and rewires their edges.
  await page.keyboard.press("Control+v");
  const twice = await editorDefinition(page);
  expect(twice.nodes.map((n) => n.id)).toEqual([
    "trigger",
    "request",
    "b",
    "c",
    "request_2",
    "noop",
    "noop_2",
  ]);
  expect(twice.edges.slice(2)).toEqual([
    { from: { node: "request_2", port: "main" }, to: { node: "noop", port: "main" } },
    { from: { node: "noop", port: "main" }, to: { node: "noop_2", port: "main" } },
  ]);
  await shot(page, testInfo, "pasted-across-flows", { fullPage: false });
});

test("[4] an invalid configuration shows on the field and the node, and activation is refused with the problems", async ({
  page,
}, testInfo) => {
  const { id } = await createFlow("Broken URL", chainFlow());
  await openEditor(page, id);
  await node(page, "request").click();
  await page.getByLabel("URL", { exact: true }).fill("not a url");
  const onField = page.locator("[data-field='url'] [data-testid='field-problem']");
  await expect(onField).toContainText(/invalid url/i);
  await expect(node(page, "request").getByTestId("node-problems")).toContainText(/url: invalid url/i);
  await expect(node(page, "request").getByTestId("flow-node")).toHaveAttribute("data-problems", "1");
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("saved")).toBeVisible();
  await shot(page, testInfo, "problem-on-field-and-node", { fullPage: false });

  // Controlled by the server's answer: a refused activation leaves it unchecked.
  await page.getByLabel("Active", { exact: true }).click();
  const notice = page.getByTestId("notice");
  await expect(notice).toContainText("cannot activate");
  await expect(notice).toContainText('node "request" field "url"');
  await expect(page.getByLabel("Active", { exact: true })).not.toBeChecked();
  await shot(page, testInfo, "activation-refused", { fullPage: false });
  const refusal = await trpc(shared.server.url, "flow.setActive", { id, active: true }, "mutation").then(
    () => "accepted",
    (e: Error) => e.message,
  );
  expect(refusal).toContain("(400)");
  expect(refusal).toContain("BAD_REQUEST");
  expect(refusal).toContain("cannot activate: version 2 has 1 problem");
  expect(refusal).toContain("Invalid URL");
  expect((await trpc<{ flow: { active: boolean } }>(shared.server.url, "flow.get", { id })).flow.active).toBe(
    false,
  );
});

test("[5] a 300-node flow opens and pans without freezing", async ({ page }, testInfo) => {
  const nodes = [
    {
      id: "trigger",
      type: "trigger.manual",
      typeVersion: 1,
      name: "Start",
      config: {},
      position: { x: 0, y: 0 },
      onError: "stop",
    },
  ];
  for (let i = 1; i < 300; i++)
    nodes.push({
      id: `n${i}`,
      type: "flow.noop",
      typeVersion: 1,
      name: `Step ${i}`,
      config: {},
      position: { x: (i % 15) * 300, y: Math.floor(i / 15) * 120 },
      onError: "stop",
    });
  const edges = nodes
    .slice(1)
    .map((n, i) => ({ from: { node: nodes[i]!.id, port: "main" }, to: { node: n.id, port: "main" } }));
  const { id } = await createFlow("Three hundred", { nodes, edges, settings });
  await useSession(page, shared.server.url);

  const started = Date.now();
  await page.goto(`${shared.server.url}/flows/${id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true", { timeout: 30_000 });
  await expect(node(page, "trigger")).toBeVisible();
  // Interactive = the page answers an animation frame after the canvas is up.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  const timeToInteractiveMs = Date.now() - started;
  const rendered = await page.locator(".react-flow__node").count();

  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__frames = [];
    w.__recording = true;
    let last = performance.now();
    const tick = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      if (w.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (!pane) throw new Error("no pane");
  const cx = pane.x + pane.width / 2;
  const cy = pane.y + pane.height / 2;
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  await page.mouse.move(cx - 250, cy - 200, { steps: 60 });
  await page.mouse.move(cx + 250, cy + 150, { steps: 60 });
  await page.mouse.up();
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__recording = false;
    return w.__frames.slice(1);
  });
  const sorted = [...frames].sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 10) / 10;
  const result = {
    nodes: nodes.length,
    edges: edges.length,
    renderedNodes: rendered,
    timeToInteractiveMs,
    panFrames: frames.length,
    frameMsP50: pct(0.5),
    frameMsP95: pct(0.95),
    frameMsMax: Math.round((sorted.at(-1) ?? 0) * 10) / 10,
    frameMsMean: Math.round((frames.reduce((a, b) => a + b, 0) / Math.max(1, frames.length)) * 10) / 10,
  };
  console.log(`[editor-300-nodes] ${JSON.stringify(result)}`);
  await testInfo.attach("300-node-metrics.json", {
    body: JSON.stringify(result, null, 2),
    contentType: "application/json",
  });
  await shot(page, testInfo, "300-nodes-after-pan", { fullPage: false });
  // Generous sanity bounds only: the numbers themselves go to the report.
  expect(frames.length).toBeGreaterThan(10);
  expect(result.frameMsMax).toBeLessThan(3000);
  expect(timeToInteractiveMs).toBeLessThan(30_000);
});

test("unsaved changes are flagged and guarded; history restores a version as a new one", async ({
  page,
}, testInfo) => {
  const { id } = await createFlow("Versions", chainFlow());
  await openEditor(page, id);
  await expect(page.getByTestId("saved")).toBeVisible();
  await node(page, "b").click();
  await page.getByLabel("Node name", { exact: true }).fill("Renamed b");
  await expect(page.getByTestId("unsaved")).toBeVisible();

  // In-app navigation asks first; dismissing keeps the editor open.
  page.once("dialog", (d) => void d.dismiss());
  await page.getByRole("link", { name: "All flows" }).click();
  await expect(page).toHaveURL(new RegExp(`/flows/${id}$`));
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("saved")).toBeVisible();
  expect((await savedDefinition(id)).version).toBe(2);

  await page.getByRole("button", { name: "Version history" }).click();
  await expect(page.getByTestId("version-list")).toContainText("Version 2");
  await shot(page, testInfo, "version-history", { fullPage: false });
  await page.getByRole("button", { name: "Restore v1" }).click();
  await expect(page.getByTestId("notice")).toContainText("Restored version 1 as version 3");
  const restored = await savedDefinition(id);
  expect(restored.version).toBe(3);
  expect(restored.definition).toEqual(chainFlow());
  expect(await editorDefinition(page)).toEqual(chainFlow());
  await expect(node(page, "b").getByTestId("node-name")).toHaveText("b");
});

test("trigger panels show the webhook URLs, the e-mail address and the next cron times", async ({
  page,
}, testInfo) => {
  const trigger = (type: string, config: Record<string, unknown>) => ({
    nodes: [{ id: "t", type, typeVersion: 1, name: type, config, position: { x: 0, y: 0 }, onError: "stop" }],
    edges: [],
    settings,
  });
  const info = await trpc<{ baseUrl: string; smtp: { domain: string } }>(shared.server.url, "system.info");
  const mail = await createFlow("Mail", trigger("trigger.email", { localPart: "invoices" }));
  await openEditor(page, mail.id);
  await node(page, "t").click();
  await expect(page.getByTestId("url-address")).toHaveText(`invoices@${info.smtp.domain}`);

  const cron = await createFlow(
    "Cron",
    trigger("trigger.cron", { expression: "0 9 * * 1-5", timezone: "Europe/Berlin" }),
  );
  await openEditor(page, cron.id);
  await node(page, "t").click();
  await expect(page.getByTestId("cron-description")).toContainText("09:00");
  await expect(page.getByTestId("cron-next").locator("li")).toHaveCount(5);
  await page.getByLabel("Expression", { exact: true }).fill("61 * * * *");
  await expect(page.getByLabel("Schedule")).toContainText(/61|minute/i);
  await shot(page, testInfo, "cron-preview", { fullPage: false });

  const hook = await createFlow("Hook", trigger("trigger.webhook", { path: "orders/new" }));
  await openEditor(page, hook.id);
  await node(page, "t").click();
  await expect(page.getByTestId("url-production-url")).toHaveText(
    `${info.baseUrl.replace(/\/$/, "")}/hooks/orders/new`,
  );
  await expect(page.getByTestId("url-test-url")).toHaveText(
    `${info.baseUrl.replace(/\/$/, "")}/hooks-test/orders/new`,
  );
});

test("runs the flow from the editor and shows each node's status", async ({ page }, testInfo) => {
  const def = chainFlow();
  // A flow that needs no network: trigger → two no-ops.
  const flow = {
    ...def,
    nodes: [def.nodes[0], def.nodes[2], def.nodes[3]],
    edges: [{ from: { node: "trigger", port: "main" }, to: { node: "b", port: "main" } }, def.edges[2]],
  };
  const { id } = await createFlow("Run me", flow);
  await openEditor(page, id);
  // Opened at a readable zoom from the trigger, the last node is off the canvas; "f" fits the flow.
  await page.keyboard.press("f");
  await viewportSettled(page);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("notice")).toContainText("Run succeeded", { timeout: 20_000 });
  for (const nid of ["trigger", "b", "c"])
    await expect(node(page, nid).getByTestId("node-status")).toHaveText("succeeded");
  await shot(page, testInfo, "run-statuses", { fullPage: false });
});

test("dark theme renders the editor", async ({ page }, testInfo) => {
  const { id } = await createFlow("Dark", chainFlow());
  await page.addInitScript(() => localStorage.setItem("theme", "dark"));
  await openEditor(page, id);
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.locator(".react-flow")).toHaveClass(/dark/);
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await shot(page, testInfo, "dark-editor-with-help", { fullPage: false });
});
