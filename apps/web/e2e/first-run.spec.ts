import { rmSync } from "node:fs";
import { chromium, expect, test } from "@playwright/test";
import { type RunningServer, startServer, tempDataDir } from "./support/server";

const owner = { email: "remote-owner@example.com", password: "a long owner password" };

let server: RunningServer;
let dir: string;
test.beforeEach(async () => {
  dir = tempDataDir();
  // Behind a (pretend) trusted proxy, so the browser can present a remote client address.
  server = await startServer(dir, { SWITCHYARD_TRUST_PROXY: "true" }, { setupOwner: false });
});
test.afterEach(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

test.describe("first run from another machine", () => {
  test("the setup page asks for the console's link, refuses a wrong token, and creates the owner with the right one", async ({
    browser,
  }) => {
    const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "203.0.113.7" } });
    const page = await context.newPage();
    await page.goto(`${server.url}/setup`);
    await expect(page.getByTestId("setup-token-error")).toHaveText(
      "Setting up from another machine needs the setup link printed on the server's console at start (…/setup?token=…).",
    );
    await expect(page.getByRole("button", { name: "Create owner account" })).toHaveCount(0);

    await page.goto(`${server.url}/setup?token=guessed`);
    await expect(page.getByTestId("setup-token-error")).toHaveText(
      "The setup token is wrong; open the setup link printed on the server's console at its latest start.",
    );

    const link = server.output().match(/open (http:\S+\/setup\?token=([A-Za-z0-9_-]{43}))/);
    expect(link, server.output()).not.toBeNull();
    await page.goto(`${server.url}/setup?token=${link![2]}`);
    await page.getByLabel("E-mail").fill(owner.email);
    await page.getByLabel("Password", { exact: true }).fill(owner.password);
    await page.getByLabel("Repeat the password").fill(owner.password);
    await page.getByRole("button", { name: "Create owner account" }).click();
    await expect(page).toHaveURL(/\/flows$/);
    await expect(page.getByTestId("user-menu")).toContainText(owner.email);
    await context.close();
  });

  test("a DNS-rebinding name that resolves to this machine gets 421 and cannot set up", async () => {
    // The browser resolves evil.test to 127.0.0.1, as a rebinding attacker's DNS would.
    const rebinding = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP evil.test 127.0.0.1"],
    });
    try {
      const page = await rebinding.newPage();
      const port = new URL(server.url).port;
      const res = await page.goto(`http://evil.test:${port}/setup`);
      expect(res?.status()).toBe(421);
      expect(await res?.json()).toMatchObject({ error: { code: "host_not_allowed" } });
      const setup = await page.evaluate(async () => {
        const r = await fetch("/api/trpc/auth.setup", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "attacker@example.com", password: "attacker password 1" }),
        });
        return r.status;
      });
      expect(setup).toBe(421);
      const status = await (await fetch(`${server.url}/api/trpc/auth.status`)).json();
      expect(status.result.data.needsSetup).toBe(true);
    } finally {
      await rebinding.close();
    }
  });
});
