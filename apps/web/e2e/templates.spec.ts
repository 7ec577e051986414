import { expect, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { trpc } from "./support/server";
import { sharedServer } from "./support/shared-server";

const shared = sharedServer();
test.use({ viewport: { width: 1440, height: 900 } });

test("a person starts a flow from a template on the Flows page and lands in the editor with it", async ({
  page,
}, testInfo) => {
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows`);
  await page.getByRole("button", { name: "Start from a template" }).click();
  const picker = page.getByRole("region", { name: "Start from a template" });
  const cards = picker.getByTestId("template-card");
  await expect(cards.getByRole("heading")).toHaveText([
    "Hello webhook",
    "Order triage",
    "Support inbox",
    "Weekday digest",
  ]);
  const triage = picker.locator("[data-template-id='order-triage']");
  await expect(triage).toContainText("Manual");
  await expect(triage).toContainText("4 nodes");
  await expect(triage).toContainText("Run it with a payload like");
  await testInfo.attach("templates", {
    body: await page.screenshot({ fullPage: true }),
    contentType: "image/png",
  });

  await triage.getByRole("button", { name: "Use template Order triage" }).click();
  await expect(page).toHaveURL(/\/flows\/[^/]+$/);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
  await expect(page.getByTestId("flow-title")).toHaveText("Order triage");
  await expect(page.locator(".react-flow__node[data-id]")).toHaveCount(4);

  // It is a flow of its own, inactive, listed on the Flows page.
  const flowId = page.url().split("/").at(-1)!;
  const got = await trpc<{ flow: { name: string; active: boolean } }>(shared.server.url, "flow.get", {
    id: flowId,
  });
  expect(got.flow).toMatchObject({ name: "Order triage", active: false });
  await page.getByRole("link", { name: "All flows" }).click();
  await expect(page.getByTestId("flow-row").getByRole("link", { name: "Order triage" })).toBeVisible();
});
