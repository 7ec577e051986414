import { expect, type Page, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { trpc } from "./support/server";
import { sharedServer } from "./support/shared-server";

const shared = sharedServer();
test.use({ viewport: { width: 1600, height: 900 } });

const definition = {
  nodes: [
    { id: "start", type: "trigger.manual", position: { x: 0, y: 200 } },
    {
      id: "shape",
      type: "data.set",
      config: {
        fields: [{ name: "customer", value: "={ 'name': trigger.name, 'tier': 'gold' }" }],
        keepOnlySet: true,
      },
      position: { x: 300, y: 200 },
    },
    {
      id: "greet",
      type: "data.set",
      config: { fields: [{ name: "greeting", value: "=item.customer" }], keepOnlySet: true },
      position: { x: 600, y: 200 },
    },
  ],
  edges: [
    { from: { node: "start" }, to: { node: "shape" } },
    { from: { node: "shape" }, to: { node: "greet" } },
  ],
};

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id='${id}']`);

test("an expression field completes field paths from the last run and previews the value, with errors inline", async ({
  page,
}) => {
  const { id } = await trpc<{ id: string }>(
    shared.server.url,
    "flow.create",
    { name: "Greeter", definition },
    "mutation",
  );
  const { runId } = await trpc<{ runId: string }>(
    shared.server.url,
    "flow.run",
    { id, payload: { name: "Ada" } },
    "mutation",
  );
  await expect
    .poll(async () => (await trpc<{ status: string }>(shared.server.url, "run.get", { id: runId })).status, {
      timeout: 20_000,
    })
    .toBe("succeeded");

  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows/${id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
  await node(page, "greet").click();
  const field = page.getByTestId("node-config").locator("textarea[id$='fields_0_value']");
  await field.click();
  await field.fill("=item.cu");
  const suggestions = page.getByRole("listbox", { name: "Expression suggestions" });
  await expect(suggestions.getByRole("option", { name: "item.customer", exact: true })).toBeVisible();
  await field.pressSequentially("stomer.n");
  await expect(suggestions.getByRole("option", { name: "item.customer.name", exact: true })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(field).toHaveValue("=item.customer.name");

  // The preview is the engine's answer on the last run's data.
  const preview = page.getByTestId("expression-preview");
  await expect(preview.getByTestId("expression-value")).toHaveText('"Ada"');
  await expect(preview).toContainText(`Preview on last run ${runId.slice(-8)}`);
  await field.fill('="Hi " & $uppercase(item.customer.name) & " (" & item.customer.tier & ")"');
  await expect(preview.getByTestId("expression-value")).toHaveText('"Hi ADA (gold)"');

  // A broken expression is answered inline, naming the node, the field and the position.
  await field.fill("=item.customer.(");
  await expect(preview.getByTestId("expression-error")).toContainText(
    'node "greet" field "fields.0.value" at position',
  );
});
