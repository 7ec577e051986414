// Issue #24, item 3 and acceptance 2: "Import from n8n" on the Flows page, in a real browser on a real
// server, with the import report (mappings, losses, problems) shown.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { trpc } from "./support/server";
import { sharedServer } from "./support/shared-server";

const shared = sharedServer();
test.use({ viewport: { width: 1400, height: 900 } });

const corpus = (name: string) =>
  readFileSync(path.resolve(import.meta.dirname, `../../../packages/import-n8n/corpus/${name}.json`), "utf8");
type FlowList = { id: string; name: string; active: boolean }[];
const flows = () => trpc<FlowList>(shared.server.url, "flow.list", {});

test("imports an uploaded n8n workflow, shows every mapping and opens it in the editor", async ({
  page,
}, testInfo) => {
  const { url } = shared.server;
  await useSession(page, url);
  await page.goto(`${url}/flows`);
  await page.getByRole("button", { name: "Import from n8n" }).click();
  const file = testInfo.outputPath("order-intake.json");
  writeFileSync(file, corpus("webhook-if-set-respond").replaceAll("__HOOK__", "e2e/order-intake"));
  await page.getByLabel("n8n workflow file").setInputFiles(file);
  await expect(page.getByLabel("n8n workflow JSON")).toHaveValue(/"name": "Order intake"/);
  await page.getByRole("button", { name: "Import", exact: true }).click();

  const report = page.getByTestId("n8n-report");
  await expect(report.getByRole("status")).toHaveText(
    "Imported “Order intake” as an inactive flow; it can be activated.",
  );
  await expect(report.getByTestId("n8n-mapping")).toHaveText([
    "Sticky Noten8n-nodes-base.stickyNotenote (note_6)",
    "Webhookn8n-nodes-base.webhooktrigger.webhook (webhook)",
    "Paid?n8n-nodes-base.iflogic.if (paid)",
    "Acceptn8n-nodes-base.setdata.set (accept)",
    "Rejectn8n-nodes-base.setdata.set (reject)",
    "Respondn8n-nodes-base.respondToWebhookwebhook.respond (respond)",
  ]);
  await expect(report.getByText("Losses (0)")).toBeVisible();
  await expect(report.getByText("Problems (0)")).toBeVisible();
  await expect(page.getByTestId("flow-row").filter({ hasText: "Order intake" })).toBeVisible();

  await report.getByRole("link", { name: "Open the flow" }).click();
  await expect(page.locator(".react-flow__node[data-id='paid']")).toBeVisible();
  await expect(page.locator(".react-flow__node[data-id='webhook']")).toBeVisible();
  await expect(page.getByText("No problems: this flow can be activated.")).toBeVisible();
  // The sticky note and the webhook's node note are canvas notes.
  await expect(page.getByLabel("Note text")).toHaveCount(2);
  await expect(page.getByLabel("Note text").first()).toHaveValue(
    "## Order intake\nPaid orders are accepted, the rest rejected.",
  );
});

test("shows the losses and the problems of a pasted workflow with an unsupported node, and activation is refused", async ({
  page,
}) => {
  const { url } = shared.server;
  await useSession(page, url);
  await page.goto(`${url}/flows`);
  await page.getByRole("button", { name: "Import from n8n" }).click();
  await page.getByLabel("n8n workflow JSON").fill(corpus("unsupported-node"));
  await page.getByRole("button", { name: "Import", exact: true }).click();

  const report = page.getByTestId("n8n-report");
  await expect(report.getByRole("status")).toHaveText(
    "Imported “Slack alert” as an inactive flow with 1 problem to resolve before it can be activated.",
  );
  await expect(report.getByTestId("n8n-mapping").filter({ hasText: "Slack" })).toHaveText(
    "Slackn8n-nodes-base.slackplaceholder (slack)",
  );
  await expect(report.getByTestId("n8n-problems").getByRole("listitem")).toHaveText([
    "Slack: Switchyard has no equivalent of n8n-nodes-base.slack; kept as a placeholder",
    'node "slack" is a placeholder for the n8n node type "n8n-nodes-base.slack", which could not be imported: replace or remove it before activating',
  ]);

  const row = page.getByTestId("flow-row").filter({ hasText: "Slack alert" });
  // The checkbox follows the stored state: the refused activation leaves it unticked.
  await row.getByRole("checkbox").click();
  await expect(page.getByText(/cannot activate: version 1 has 1 problem/)).toBeVisible();
  await expect(row.getByRole("checkbox")).not.toBeChecked();
  expect((await flows()).find((f) => f.name === "Slack alert")?.active).toBe(false);
});

test("says why a paste is not an n8n workflow and creates nothing", async ({ page }) => {
  const { url } = shared.server;
  await useSession(page, url);
  await page.goto(`${url}/flows`);
  const before = (await flows()).length;
  await page.getByRole("button", { name: "Import from n8n" }).click();
  await page.getByLabel("n8n workflow JSON").fill('{ "nodes": [{ "name": "A" }] }');
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(
    page.getByText(
      "Could not import: not an n8n workflow: nodes.0.type: Invalid input: expected string, received undefined",
    ),
  ).toBeVisible();
  expect((await flows()).length).toBe(before);
});
