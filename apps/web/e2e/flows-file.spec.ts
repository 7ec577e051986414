// Issue #21, item 9: JSON export and import from the Flows page, in a real browser on a real server.
import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { sharedServer } from "./support/shared-server";
import { trpc } from "./support/server";

const shared = sharedServer();
test.use({ viewport: { width: 1400, height: 900 } });

const definition = {
  nodes: [
    { id: "start", type: "trigger.manual", name: "Start", config: {}, position: { x: 0, y: 100 } },
    {
      id: "shape",
      type: "data.set",
      name: "Shape order",
      config: { values: { total: "=item.total * 2" } },
      position: { x: 300, y: 100 },
    },
  ],
  edges: [{ from: { node: "start", port: "main" }, to: { node: "shape", port: "main" } }],
};

type FlowList = { id: string; name: string }[];
const flowNames = async () => (await trpc<FlowList>(shared.server.url, "flow.list", {})).map((f) => f.name);

test("exports a flow as a JSON file and imports it back as a new flow with the same definition", async ({
  page,
}, testInfo) => {
  const { url } = shared.server;
  const created = await trpc<{ id: string }>(
    url,
    "flow.create",
    { name: "Order doubler", description: "Doubles totals", definition },
    "mutation",
  );
  const saved = await trpc<{ version: { definition: unknown } }>(url, "flow.get", { id: created.id });
  await useSession(page, url);
  await page.goto(`${url}/flows`);

  const row = page.getByTestId("flow-row").filter({ hasText: "Order doubler" });
  const downloading = page.waitForEvent("download");
  await row.getByRole("button", { name: "Export JSON" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("order-doubler.switchyard.json");
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const exported = JSON.parse(readFileSync(file, "utf8"));
  expect(exported).toEqual({
    name: "Order doubler",
    description: "Doubles totals",
    definition: saved.version.definition,
  });

  // Import under a new name (a second flow of the same name is allowed, but the new one must be told apart).
  writeFileSync(file, JSON.stringify({ ...exported, name: "Order doubler (imported)" }));
  await page.getByLabel("Flow file to import").setInputFiles(file);
  const imported = page.getByTestId("flow-row").filter({ hasText: "Order doubler (imported)" });
  await expect(imported).toBeVisible();
  const list = await trpc<FlowList>(url, "flow.list", {});
  const copy = list.find((f) => f.name === "Order doubler (imported)")!;
  const copyFlow = await trpc<{ version: { definition: unknown }; flow?: { description?: string } }>(
    url,
    "flow.get",
    {
      id: copy.id,
    },
  );
  expect(copyFlow.version.definition).toEqual(saved.version.definition);

  // The copy opens in the editor with both nodes.
  await imported.getByRole("link", { name: "Order doubler (imported)" }).click();
  await expect(page.locator(".react-flow__node[data-id='shape']")).toBeVisible();
  await expect(page.locator(".react-flow__node[data-id='start']")).toBeVisible();
});

test("imports a bare flow definition under the file's name", async ({ page }, testInfo) => {
  const { url } = shared.server;
  await useSession(page, url);
  await page.goto(`${url}/flows`);
  const file = testInfo.outputPath("nightly-report.json");
  writeFileSync(file, JSON.stringify(definition));
  await page.getByLabel("Flow file to import").setInputFiles(file);
  await expect(page.getByTestId("flow-row").filter({ hasText: "nightly-report" })).toBeVisible();
});

test("refuses a file that is not a flow, saying why and creating nothing, and names a broken flow's problems", async ({
  page,
}, testInfo) => {
  const { url } = shared.server;
  await useSession(page, url);
  await page.goto(`${url}/flows`);
  await expect(page.getByTestId("flow-row").first()).toBeVisible();
  const before = await flowNames();

  const notJson = testInfo.outputPath("broken.json");
  writeFileSync(notJson, "{ this is not json");
  await page.getByLabel("Flow file to import").setInputFiles(notJson);
  await expect(page.getByText(/Could not import broken\.json: .*JSON/)).toBeVisible();

  const noNodes = testInfo.outputPath("shopping-list.json");
  writeFileSync(noNodes, JSON.stringify({ apples: 3 }));
  await page.getByLabel("Flow file to import").setInputFiles(noNodes);
  await expect(
    page.getByText("Could not import shopping-list.json: the file has neither a definition nor nodes"),
  ).toBeVisible();

  expect(await flowNames()).toEqual(before);

  // A flow file whose flow is broken is kept as a draft (drafts may have problems; activation refuses
  // them), and the page names the problems at once instead of importing silently.
  const badNodes = testInfo.outputPath("bad-nodes.json");
  writeFileSync(badNodes, JSON.stringify({ name: "Bad nodes", definition: { nodes: "start" } }));
  await page.getByLabel("Flow file to import").setInputFiles(badNodes);
  await expect(page.getByTestId("import-notice")).toContainText(
    /Imported “Bad nodes” as a draft with \d+ problems? to fix before it can be activated: .*nodes/,
  );
  expect(await flowNames()).toEqual(["Bad nodes", ...before]);
});
