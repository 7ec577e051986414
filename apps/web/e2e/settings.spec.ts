import { rmSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import {
  type ScriptedLlmServer,
  startScriptedLlmServer,
} from "../../../packages/agent/src/testing/scripted-llm-server";
import { useSession } from "./support/auth";
import { type RunningServer, startServer, tempDataDir, trpc } from "./support/server";
import { shot } from "./support/shot";

const BEARER = "crm-bearer-7c1f0e9a44";
const API_KEY = "sk-e2e-provider-52b8d1f3";

let server: RunningServer;
let llm: ScriptedLlmServer;
let dir: string;
test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1400, height: 1000 } });
test.beforeAll(async () => {
  dir = tempDataDir();
  server = await startServer(dir);
  // Answers every chat call; it records the requests so we can see the key was used server-side.
  llm = await startScriptedLlmServer(() => ({
    content: "pong",
    usage: { promptTokens: 5, completionTokens: 1 },
  }));
});
test.afterAll(async () => {
  await llm?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Every response body the browser receives, to prove no secret ever comes back. */
function collectBodies(page: Page) {
  const pending: Promise<string>[] = [];
  page.on("response", (r) => {
    pending.push(
      r
        .body()
        .then((b) => b.toString("utf8"))
        .catch(() => ""),
    );
  });
  return async () => Promise.all(pending);
}

async function expectNoSecretOnPage(page: Page) {
  const text = await page.content();
  expect(text).not.toContain(BEARER);
  expect(text).not.toContain(API_KEY);
}

test("credentials and models: values are write-only, and the provider test makes a real call", async ({
  page,
}, testInfo) => {
  const bodies = collectBodies(page);
  await useSession(page, server.url);

  await page.goto(`${server.url}/settings`);
  const sections = page.getByRole("navigation", { name: "Settings sections" });
  for (const name of [
    "Models",
    "Agent policy",
    "Credentials",
    "Network",
    "Users",
    "API keys",
    "Audit log",
    "Run retention",
  ])
    await expect(sections.getByRole("link", { name: new RegExp(`^${name}`) })).toBeVisible();
  await expect(page.getByTestId("settings-db-size")).toHaveText(/· \d+\.\d MB on disk/);
  await shot(page, testInfo, "settings-index");

  // A bearer credential, generated form, masked input.
  await sections.getByRole("link", { name: /^Credentials/ }).click();
  await expect(page.getByRole("heading", { name: "Credentials", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "New credential" });
  await form.getByLabel("Name").fill("CRM token");
  await form.getByLabel("Type").selectOption({ label: "Bearer token" });
  await expect(form.getByLabel("Token")).toHaveAttribute("type", "password");
  await form.getByLabel("Token").fill(BEARER);
  await form.getByLabel("Allowed hosts").fill("crm.example.com");
  await form.getByRole("button", { name: "Save credential" }).click();
  const newCredential = page.getByRole("region", { name: "New credential" });
  await expect(newCredential.getByRole("status")).toContainText("Saved “CRM token”");
  await expect(form.getByLabel("Token")).toHaveValue("");

  // An empty required field is named, and nothing is saved.
  await form.getByLabel("Name").fill("Broken");
  await form.getByRole("button", { name: "Save credential" }).click();
  await expect(form.getByRole("alert")).toHaveText([
    "Too small: expected string to have >=1 characters",
    "list the hosts this credential may be sent to, e.g. api.example.com or *.example.com",
  ]);

  // The provider's API key.
  await form.getByLabel("Name").fill("Model gateway key");
  await form.getByLabel("Type").selectOption({ label: "LLM provider API key" });
  await form.getByLabel("Api key").fill(API_KEY);
  await form.getByLabel("Allowed hosts").fill("127.0.0.1");
  await form.getByRole("button", { name: "Save credential" }).click();
  await expect(newCredential.getByRole("status")).toContainText("Saved “Model gateway key”");

  const rows = page.getByTestId("credential-row");
  await expect(rows.getByTestId("credential-name")).toHaveText(["CRM token", "Model gateway key"]);
  await expect(rows.first().getByTestId("credential-field")).toHaveText(["token: set", "allowedHosts: set"]);
  await expect(rows.first().getByTestId("credential-hosts")).toContainText("Sent only to: crm.example.com");
  await shot(page, testInfo, "credentials");
  await expectNoSecretOnPage(page);

  // Models: point at the scripted OpenAI-compatible server, test, save.
  await page.goto(`${server.url}/settings/models`);
  await expect(page.getByText("No provider is configured")).toBeVisible();
  await page.getByLabel("Base URL").fill(llm.url);
  await page.getByLabel("API key").selectOption({ label: "Model gateway key" });
  await page.getByLabel("Model for burst").fill("tiny-model");
  await page.getByLabel("Model for default").fill("main-model");
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("llm-test-result")).toHaveText(
    /^Connected in \d+ ms: main-model replied “pong”\.$/,
  );
  expect(llm.requests.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("form", { name: "LLM provider" }).getByRole("status")).toHaveText(
    "Saved. Agents use the new provider from their next step.",
  );
  await shot(page, testInfo, "models");
  const saved = await trpc<{ provider: { baseUrl: string; models: Record<string, string> } }>(
    server.url,
    "settings.llm.get",
  );
  expect(saved.provider).toMatchObject({
    baseUrl: llm.url,
    models: { burst: "tiny-model", default: "main-model" },
  });

  // An unreachable provider shows the exact failure.
  await page.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("llm-test-result")).toHaveText(
    /^Connection failed after \d+ ms: LLM provider request to http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions failed: fetch failed$/,
  );

  await page.reload();
  await expect(page.getByLabel("Base URL")).toHaveValue(llm.url);
  await expectNoSecretOnPage(page);

  const all = await bodies();
  expect(all.length).toBeGreaterThan(10);
  for (const body of all) {
    expect(body).not.toContain(BEARER);
    expect(body).not.toContain(API_KEY);
  }
});

test("agent policy: edit ceilings and the live preview follows", async ({ page }, testInfo) => {
  await useSession(page, server.url);
  await page.goto(`${server.url}/settings/policy`);
  const table = page.getByRole("table", { name: "Channel ceilings" });
  await expect(table.getByLabel("Ceiling for webhook")).toHaveValue("read_only");
  await expect(table.getByLabel("Ceiling for manual")).toHaveValue("execute");
  await expect(table.getByLabel("Ceiling for subflow")).toHaveValue("");

  const preview = page.getByRole("region", { name: "Policy preview" });
  await expect(preview.getByTestId("tool-allowed")).toHaveText([
    "memory_flavour",
    "memory_hybrid_search",
    "memory_recall",
  ]);
  await expect(preview.getByTestId("tool-hidden")).toHaveText([
    "http_get",
    "http_request",
    "run_code",
    "send_email",
    "start_flow",
  ]);
  await expect(preview.getByTestId("policy-boundary")).toContainText("- Allowed permission: read_only");

  // Unsaved edit: the preview changes at once.
  await table.getByLabel("Ceiling for webhook").selectOption("none");
  await expect(preview.getByTestId("tool-allowed")).toHaveCount(0);
  await expect(preview.getByTestId("tool-denied")).toHaveText([
    "memory_flavour",
    "memory_hybrid_search",
    "memory_recall",
  ]);
  await expect(preview.getByTestId("policy-boundary")).toContainText("- Allowed permission: none");
  await expect(preview.getByTestId("policy-boundary")).toContainText(
    "- Restricted tools: 8 omitted by policy",
  );
  await expect(preview).toContainText("(unsaved)");
  await shot(page, testInfo, "policy-edited");

  await page.getByRole("button", { name: "Save ceilings" }).click();
  await expect(page.getByRole("region", { name: "Channel ceilings" }).getByRole("status")).toHaveText(
    "Saved. Agent steps use these ceilings from now on.",
  );
  const stored = await trpc<{ ceilings: Record<string, string> }>(server.url, "settings.policy.get");
  expect(stored.ceilings.webhook).toBe("none");

  // Another agent and channel.
  await preview.getByLabel("Agent").selectOption("researcher");
  await preview.getByLabel("Channel").selectOption("manual");
  await expect(preview.getByTestId("tool-allowed")).toHaveText(["http_get"]);
  await expect(preview.getByTestId("preview-permission")).toHaveText("read_only");
  await expect(preview).toContainText(
    "the channel allows execute, narrowed by the agent's read_only sandbox",
  );

  await page.getByRole("button", { name: "Reset to safe defaults" }).click();
  await expect(table.getByLabel("Ceiling for webhook")).toHaveValue("read_only");
  const reset = await trpc<{ ceilings: Record<string, string> }>(server.url, "settings.policy.get");
  expect(reset.ceilings).toEqual({
    email: "read_only",
    webhook: "read_only",
    error: "read_only",
    cron: "write",
    api: "write",
    manual: "execute",
  });
  await shot(page, testInfo, "policy-reset");
});

test("network: exempt hosts are saved with a clear warning and bad entries are named", async ({
  page,
}, testInfo) => {
  await useSession(page, server.url);
  await page.goto(`${server.url}/settings/network`);
  await expect(page.getByText("Every host listed here skips the SSRF guard.")).toBeVisible();
  const hosts = page.getByLabel("Hosts exempt from the guard (one per line)");
  await hosts.fill("127.0.0.1\nhttp://bad.example/");
  const form = page.getByRole("form", { name: "Allowed hosts" });
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("alert")).toContainText(
    "http://bad.example/: enter a bare host name or IP address",
  );
  expect((await trpc<{ allowHosts: string[] }>(server.url, "settings.network.get")).allowHosts).toEqual([]);
  await hosts.fill("127.0.0.1\nollama.internal");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toContainText("Saved 2 hosts");
  await expect(form.getByRole("status")).toContainText("It applies to the next outbound request");
  await shot(page, testInfo, "network");
});
