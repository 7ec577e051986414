import { expect, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { sharedServer } from "./support/shared-server";

const shared = sharedServer();
test.use({ viewport: { width: 1400, height: 1000 } });

test("the agents page lists the loaded definitions and previews their policy per channel", async ({
  page,
}, testInfo) => {
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/agents`);

  // Fresh install: no provider, but the retrieval agents still work.
  await expect(page.getByTestId("no-provider")).toContainText("No LLM provider is configured.");
  const cards = page.getByTestId("agent-card");
  await expect(cards).toHaveCount(9);
  const memoryAgent = page.locator("[data-agent-id='flow_memory_agent']");
  await expect(memoryAgent.getByRole("link", { name: "Flow Memory Agent" })).toBeVisible();
  await expect(memoryAgent.getByTestId("agent-tools")).toHaveText(
    /memory_recall\s*memory_hybrid_search\s*memory_flavour/,
  );
  await expect(memoryAgent).toContainText("4,000 characters");
  await expect(memoryAgent).toContainText("hint: burst");
  await expect(memoryAgent).toContainText("read_only");
  await expect(memoryAgent).toContainText("works without a model (retrieval-only)");
  await expect(page.locator("[data-agent-id='orchestrator']")).toContainText("flow_memory_agent");
  await testInfo.attach("agents", {
    body: await page.screenshot({ fullPage: true }),
    contentType: "image/png",
  });

  await memoryAgent.getByRole("link", { name: "Flow Memory Agent" }).click();
  await expect(page.getByRole("heading", { name: "Flow Memory Agent", level: 1 })).toBeVisible();
  await expect(page.getByTestId("agent-when-to-use")).toContainText(
    "Read-only retrieval of what the user's memory knows",
  );
  await expect(page.getByTestId("agent-prompt")).not.toBeEmpty();

  // Webhook (the default tab): the memory tools are allowed; http_get and the tools that act are hidden.
  const policy = page.getByRole("region", { name: "Policy preview" });
  await expect(policy.getByRole("tab", { name: "webhook" })).toHaveAttribute("aria-selected", "true");
  await expect(policy.getByTestId("tool-allowed")).toHaveText([
    "memory_flavour",
    "memory_hybrid_search",
    "memory_recall",
  ]);
  await expect(policy.getByTestId("tool-hidden")).toHaveText([
    "http_get",
    "http_request",
    "run_code",
    "send_email",
    "start_flow",
  ]);
  await expect(policy.getByTestId("policy-boundary")).toContainText(
    "- Allowed tools: memory_flavour, memory_hybrid_search, memory_recall",
  );
  await testInfo.attach("agent-detail", {
    body: await page.screenshot({ fullPage: true }),
    contentType: "image/png",
  });

  // Manual allows execute, but the agent's read_only sandbox narrows it.
  await policy.getByRole("tab", { name: "manual" }).click();
  await expect(policy.getByTestId("preview-permission")).toHaveText("read_only");
  await expect(policy).toContainText("the channel allows execute, narrowed by the agent's read_only sandbox");
});

test("each agent card shows which of its tools a webhook, e-mail, cron, API or manual run would get", async ({
  page,
}, testInfo) => {
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/agents`);

  const responder = page.locator("[data-agent-id='support_responder']");
  const access = responder.getByTestId("tool-access");
  await expect(access.locator("thead th")).toHaveText(["Tool", "Webhook", "E-mail", "Cron", "API", "Manual"]);
  await expect(access.locator("tbody td:first-child")).toHaveText([
    "http_request",
    "memory_flavour",
    "memory_recall",
    "send_email",
  ]);
  // The default ceilings: webhook and e-mail are read_only, so sending is refused there.
  for (const channel of ["webhook", "email"]) {
    await expect(responder.getByTestId(`access-send_email-${channel}`)).toHaveText("denied");
    await expect(responder.getByTestId(`access-http_request-${channel}`)).toHaveText("denied");
    await expect(responder.getByTestId(`access-memory_recall-${channel}`)).toHaveText("allowed");
  }
  for (const channel of ["cron", "api", "manual"]) {
    await expect(responder.getByTestId(`access-send_email-${channel}`)).toHaveText("allowed");
  }
  await expect(responder.getByTestId("tool-access-hidden")).toContainText("hidden on every channel");

  // run_code needs execute: only a manual run gets it.
  const operator = page.locator("[data-agent-id='operator']");
  await expect(operator.getByTestId("access-run_code-cron")).toHaveText("denied");
  await expect(operator.getByTestId("access-run_code-api")).toHaveText("denied");
  await expect(operator.getByTestId("access-run_code-manual")).toHaveText("allowed");
  await expect(operator.getByTestId("access-start_flow-api")).toHaveText("allowed");
  await expect(operator.getByTestId("access-start_flow-email")).toHaveText("denied");

  await expect(page.locator("[data-agent-id='classifier']").getByTestId("tool-access-none")).toHaveText(
    "no tools on any channel",
  );
  await testInfo.attach("agents-tool-access", {
    body: await responder.screenshot(),
    contentType: "image/png",
  });
});
