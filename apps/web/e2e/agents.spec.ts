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
  await expect(cards).toHaveCount(7);
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

  // Webhook (the default tab): the memory tools are allowed, http_get is hidden.
  const policy = page.getByRole("region", { name: "Policy preview" });
  await expect(policy.getByRole("tab", { name: "webhook" })).toHaveAttribute("aria-selected", "true");
  await expect(policy.getByTestId("tool-allowed")).toHaveText([
    "memory_flavour",
    "memory_hybrid_search",
    "memory_recall",
  ]);
  await expect(policy.getByTestId("tool-hidden")).toHaveText(["http_get"]);
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
