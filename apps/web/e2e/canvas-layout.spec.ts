import { expect, type Locator, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { trpc } from "./support/server";
import { sharedServer } from "./support/shared-server";

const shared = sharedServer();
// The window a new user tried it in (issue #21).
test.use({ viewport: { width: 1440, height: 900 } });

/** Smallest on-screen size (CSS px) a node title may have at the opening zoom. */
const MIN_TITLE_PX = 10;

/** Six nodes, one branch, and no positions: what a script writes to POST /api/v1/flows. */
const branching = {
  name: "Order sizes (no positions)",
  definition: {
    nodes: [
      { id: "start", type: "trigger.manual", name: "Start", config: {} },
      { id: "check", type: "logic.if", name: "Is it big?", config: { condition: "=item.total > 100" } },
      { id: "big", type: "data.set", name: "Mark big", config: { fields: [{ name: "size", value: "big" }] } },
      {
        id: "small",
        type: "data.set",
        name: "Mark small",
        config: { fields: [{ name: "size", value: "small" }] },
      },
      { id: "notify", type: "flow.noop", name: "Notify sales", config: {} },
      { id: "archive", type: "flow.noop", name: "Archive", config: {} },
    ],
    edges: [
      { from: { node: "start", port: "main" }, to: { node: "check", port: "main" } },
      { from: { node: "check", port: "true" }, to: { node: "big", port: "main" } },
      { from: { node: "check", port: "false" }, to: { node: "small", port: "main" } },
      { from: { node: "big", port: "main" }, to: { node: "notify", port: "main" } },
      { from: { node: "small", port: "main" }, to: { node: "archive", port: "main" } },
    ],
  },
};
const ids = branching.definition.nodes.map((n) => n.id);

async function api(path: string, key: string, body: unknown) {
  const res = await fetch(`${shared.server.url}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`POST ${path} → ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every pair of on-screen node boxes is disjoint. */
async function expectNoOverlap(nodes: Locator, label: (i: number) => Promise<string>) {
  const count = await nodes.count();
  const boxes: { name: string; box: Box }[] = [];
  for (let i = 0; i < count; i++) {
    const box = await nodes.nth(i).boundingBox();
    expect(box, `node ${i} has a box`).not.toBeNull();
    boxes.push({ name: await label(i), box: box! });
  }
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      expect(intersects(boxes[i]!.box, boxes[j]!.box), `${boxes[i]!.name} overlaps ${boxes[j]!.name}`).toBe(
        false,
      );
}

/** The title's computed font size times the viewport's zoom: what a person actually reads. */
async function titlePx(pane: Locator, title: Locator) {
  const zoom = await pane
    .locator(".react-flow__viewport")
    .evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a);
  const font = await title.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
  return { zoom, px: font * zoom };
}

test("a six-node branching flow created through the REST API without positions opens laid out, readable, in the editor and its run graph", async ({
  page,
}, testInfo) => {
  const { key } = await trpc<{ key: string }>(
    shared.server.url,
    "apiKey.create",
    { name: "layout script", scopes: ["read", "write"] },
    "mutation",
  );
  const created = (await api("/flows", key, branching)) as { flow: { id: string } };
  const flowId = created.flow.id;
  const run = (await api(`/flows/${flowId}/runs`, key, { payload: { total: 150 }, wait: true })) as {
    id: string;
    status: string;
  };
  expect(run.status).toBe("succeeded");

  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows/${flowId}`);
  // Opening lays the flow out first, and elk is fetched on demand: a loaded machine needs a while.
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true", { timeout: 30_000 });
  // At a readable zoom the canvas (between palette and config panel) shows the start of the flow;
  // the person pans for the rest. Nodes React Flow has not rendered are checked from their positions.
  const editorNodes = page.locator(".react-flow__node[data-id]");
  const pane = page.locator(".react-flow").first();
  const start = page.locator(".react-flow__node[data-id='start']");
  await expect(start).toBeInViewport();
  await expectNoOverlap(editorNodes, (i) => editorNodes.nth(i).getAttribute("data-id").then(String));
  const editorTitle = await titlePx(pane, start.getByTestId("node-name"));
  expect(editorTitle.px, `title at zoom ${editorTitle.zoom}`).toBeGreaterThanOrEqual(MIN_TITLE_PX);
  const box = async (id: string) => (await page.locator(`.react-flow__node[data-id='${id}']`).boundingBox())!;
  expect((await box("start")).x).toBeLessThan((await box("check")).x);
  const opened = await page.evaluate(
    () =>
      (
        window as unknown as {
          __switchyardEditor: {
            definition(): { nodes: { id: string; position: { x: number; y: number } }[] };
          };
        }
      ).__switchyardEditor.definition().nodes,
  );
  // The largest node drawn, in flow units, stands in for every node's size.
  const drawn = await editorNodes.evaluateAll((els) =>
    els.map((el) => ({ w: (el as HTMLElement).offsetWidth, h: (el as HTMLElement).offsetHeight })),
  );
  const size = { width: Math.max(...drawn.map((d) => d.w)), height: Math.max(...drawn.map((d) => d.h)) };
  for (let i = 0; i < opened.length; i++)
    for (let j = i + 1; j < opened.length; j++) {
      const [a, b] = [opened[i]!, opened[j]!];
      expect(
        intersects({ ...a.position, ...size }, { ...b.position, ...size }),
        `${a.id} overlaps ${b.id}`,
      ).toBe(false);
    }
  const at = new Map(opened.map((n) => [n.id, n.position]));
  expect(at.get("big")!.y).toBeLessThan(at.get("small")!.y);
  expect(at.get("notify")!.x).toBeGreaterThan(at.get("big")!.x);
  await testInfo.attach("editor", { body: await page.screenshot(), contentType: "image/png" });

  // Panning left brings the end of the flow into view, still readable and apart.
  const paneBox = (await pane.boundingBox())!;
  await page.mouse.move(paneBox.x + paneBox.width - 20, paneBox.y + 100);
  await page.mouse.down();
  await page.mouse.move(paneBox.x + 20, paneBox.y + 100, { steps: 10 });
  await page.mouse.up();
  const notify = page.locator(".react-flow__node[data-id='notify']");
  await expect(notify).toBeInViewport();
  await expect(page.locator(".react-flow__node[data-id='archive']")).toBeInViewport();
  await expectNoOverlap(editorNodes, (i) => editorNodes.nth(i).getAttribute("data-id").then(String));
  expect((await titlePx(pane, notify.getByTestId("node-name"))).px).toBeGreaterThanOrEqual(MIN_TITLE_PX);

  // Opening laid the copy out; nothing was written until the person saves.
  const stored = await trpc<{ version: { version: number; definition: { nodes: { position: unknown }[] } } }>(
    shared.server.url,
    "flow.get",
    { id: flowId },
  );
  expect(stored.version.version).toBe(1);
  expect(stored.version.definition.nodes.map((n) => n.position)).toEqual(ids.map(() => ({ x: 0, y: 0 })));
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved version 2.")).toBeVisible();
  const saved = await trpc<{ version: { definition: { nodes: { position: { x: number; y: number } }[] } } }>(
    shared.server.url,
    "flow.get",
    { id: flowId },
  );
  expect(new Set(saved.version.definition.nodes.map((n) => `${n.position.x},${n.position.y}`)).size).toBe(6);

  // The run graph of the run made from version 1 (no positions).
  await page.goto(`${shared.server.url}/runs/${run.id}`);
  const graph = page.getByTestId("run-graph");
  const runNodes = graph.getByTestId("run-node");
  await expect(runNodes).toHaveCount(6, { timeout: 30_000 });
  await expect(graph.locator("[data-node-id='notify']")).toHaveAttribute("data-status", "succeeded");
  await expectNoOverlap(runNodes, (i) => runNodes.nth(i).getAttribute("data-node-id").then(String));
  await expect(graph.locator("[data-node-id='start']")).toBeInViewport();
  const runTitle = await titlePx(graph, graph.locator("[data-node-id='start'] span").first());
  expect(runTitle.px, `title at zoom ${runTitle.zoom}`).toBeGreaterThanOrEqual(MIN_TITLE_PX);
  await testInfo.attach("run-graph", {
    body: await page.screenshot({ fullPage: true }),
    contentType: "image/png",
  });
});

test("a flow laid out by hand opens where it was drawn", async ({ page }) => {
  const positions = [
    { x: 0, y: 0 },
    { x: 400, y: 0 },
  ];
  const { id } = await trpc<{ id: string }>(
    shared.server.url,
    "flow.create",
    {
      name: "Drawn by hand",
      definition: {
        nodes: [
          { id: "start", type: "trigger.manual", config: {}, position: positions[0] },
          { id: "wait", type: "flow.noop", config: {}, position: positions[1] },
        ],
        edges: [{ from: { node: "start", port: "main" }, to: { node: "wait", port: "main" } }],
      },
    },
    "mutation",
  );
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows/${id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
  const definition = await page.evaluate(() =>
    (
      window as unknown as { __switchyardEditor: { definition(): { nodes: { position: unknown }[] } } }
    ).__switchyardEditor.definition(),
  );
  expect(definition.nodes.map((n) => n.position)).toEqual(positions);
});
