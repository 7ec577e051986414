import { expect, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { trpc } from "./support/server";
import { sharedServer } from "./support/shared-server";

const shared = sharedServer();
test.use({ viewport: { width: 1600, height: 900 } });

type RunList = { runs: { id: string; status: string; channel: string }[] };
type RunTrace = { status: string; channel: string; payload: Record<string, unknown> };

const create = (name: string, definition: unknown) =>
  trpc<{ id: string }>(shared.server.url, "flow.create", { name, definition }, "mutation");

test("a failed run starts the error flow picked in flow settings, on channel error, with the failure and its link", async ({
  page,
}) => {
  const alert = await create("Alert ops", {
    nodes: [
      { id: "failure", type: "trigger.error", position: { x: 0, y: 0 } },
      { id: "log", type: "flow.noop", position: { x: 300, y: 0 } },
    ],
    edges: [{ from: { node: "failure" }, to: { node: "log" } }],
  });
  const orders = await create("Orders", {
    nodes: [
      { id: "start", type: "trigger.manual", position: { x: 0, y: 0 } },
      {
        id: "check",
        type: "flow.stop",
        config: { outcome: "error", message: "order has no customer" },
        position: { x: 300, y: 0 },
      },
    ],
    edges: [{ from: { node: "start" }, to: { node: "check" } }],
  });

  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows/${orders.id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
  const failure = page.getByRole("region", { name: "When a run fails" });
  // The picker offers flows with an Error trigger only; no SMTP credential exists yet, and it says so.
  await expect(failure.getByLabel("Error flow").locator("option")).toHaveText(["None", "Alert ops"]);
  await expect(failure.getByRole("note")).toContainText(
    "Failure e-mails need an SMTP credential, and none is configured.",
  );
  await failure.getByLabel("Error flow").selectOption({ label: "Alert ops" });
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("live-run")).toHaveAttribute("data-status", "failed", { timeout: 20_000 });

  const failed = (await trpc<RunList>(shared.server.url, "run.list", { flowId: orders.id })).runs[0]!;
  await expect
    .poll(async () => (await trpc<RunList>(shared.server.url, "run.list", { flowId: alert.id })).runs, {
      timeout: 20_000,
    })
    .toEqual([expect.objectContaining({ channel: "error", status: "succeeded" })]);
  const errorRun = (await trpc<RunList>(shared.server.url, "run.list", { flowId: alert.id })).runs[0]!;
  const trace = await trpc<RunTrace>(shared.server.url, "run.get", { id: errorRun.id });
  expect(trace.payload).toMatchObject({
    flow: { id: orders.id, name: "Orders" },
    run: {
      id: failed.id,
      status: "failed",
      channel: "manual",
      url: expect.stringMatching(`/runs/${failed.id}$`),
    },
    node: { id: "check" },
    error: { code: "input_invalid", message: "order has no customer" },
  });

  // The error run's page says what started it; the flow's saved settings name the error flow.
  await page.goto(`${shared.server.url}/runs/${errorRun.id}`);
  await expect(page.getByText(`${errorRun.id} · version 1 · error`)).toBeVisible();
  const saved = await trpc<{ version: { definition: { settings?: { errorFlowId?: string } } } }>(
    shared.server.url,
    "flow.get",
    { id: orders.id },
  );
  expect(saved.version.definition.settings?.errorFlowId).toBe(alert.id);
});

test("with an SMTP credential, failure e-mail addresses are chosen and saved; a bad address is a named problem", async ({
  page,
}) => {
  await trpc(
    shared.server.url,
    "credential.create",
    {
      name: "Ops mail",
      type: "smtp",
      data: { host: "127.0.0.1", port: "2525", from: "alerts@example.test", allowedHosts: "127.0.0.1" },
    },
    "mutation",
  );
  const flows = await trpc<{ id: string; name: string }[]>(shared.server.url, "flow.list");
  const orders = flows.find((f) => f.name === "Orders")!;
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/flows/${orders.id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
  const failure = page.getByRole("region", { name: "When a run fails" });
  await expect(failure.getByRole("note")).toHaveCount(0);
  await failure.getByLabel("Failure e-mail credential").selectOption({ label: "Ops mail" });
  await failure.getByLabel("Failure e-mail addresses").fill("ops@example.test, not-an-address");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("region", { name: "Problems" })).toContainText(
    "settings.failureEmail.to.1: not an e-mail address",
  );
  await failure.getByLabel("Failure e-mail addresses").fill("ops@example.test, lead@example.test");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("region", { name: "Problems" })).toContainText("No problems");
  const saved = await trpc<{ version: { definition: { settings?: Record<string, unknown> } } }>(
    shared.server.url,
    "flow.get",
    { id: orders.id },
  );
  expect(saved.version.definition.settings?.failureEmail).toEqual({
    credentialId: expect.any(String),
    to: ["ops@example.test", "lead@example.test"],
  });
});
