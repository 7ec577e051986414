import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { e2eOwner, useSession } from "./support/auth";
import { repoRoot, startServer, tempDataDir } from "./support/server";

const owner = { name: "Ada Owner", email: "ada@example.com", password: "a long owner password" };

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** `switchyard user create …` with the password on stdin; resolves to the exit code and output. */
function userCreate(
  dataDir: string,
  args: string[],
  password: string,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, "packages/runtime/bin/switchyard.mjs"), "user", "create", ...args],
    {
      cwd: repoRoot,
      env: { ...process.env, SWITCHYARD_DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  child.stdin.end(`${password}\n`);
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out })));
}

test.describe("accounts", () => {
  test("sign-in keeps what was typed before the page's script ran", async ({ page }) => {
    const dir = tempDataDir();
    const server = await startServer(dir);
    try {
      // A slow first load: the page's scripts are held until both fields are filled.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/_next/static/**", async (route) => {
        // Scripts only: held stylesheets would keep the page from rendering at all.
        if (route.request().resourceType() === "script") await released;
        await route.continue();
      });
      await page.goto(`${server.url}/signin`, { waitUntil: "commit" });
      await page.getByLabel("E-mail").fill(e2eOwner.email);
      await page.getByLabel("Password").fill(e2eOwner.password);
      // Until the script runs, the form cannot be sent natively (a GET would put the password in the URL).
      await expect(page.getByRole("button", { name: "Sign in" })).toBeDisabled();
      release();
      // It used to stay disabled: the typed values never reached the form's state.
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/flows$/);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("first start: setup creates the owner, who signs out and back in; a wrong password is refused", async ({
    page,
  }, testInfo) => {
    const dir = tempDataDir();
    const server = await startServer(dir, {}, { setupOwner: false });
    try {
      // Every page leads to /setup while no user exists.
      await page.goto(`${server.url}/runs`);
      await expect(page).toHaveURL(/\/setup$/);
      await expect(page.getByRole("heading", { name: "Welcome to Switchyard" })).toBeVisible();

      // The password rule is reported at its field.
      await page.getByLabel("E-mail").fill(owner.email);
      await page.getByLabel("Password", { exact: true }).fill("too short");
      await page.getByLabel("Repeat the password").fill("too short");
      await page.getByRole("button", { name: "Create owner account" }).click();
      await expect(page.locator("#password-error")).toHaveText("password must be at least 12 characters");

      await page.getByLabel("Your name (optional)").fill(owner.name);
      await page.getByLabel("Password", { exact: true }).fill(owner.password);
      await page.getByLabel("Repeat the password").fill(owner.password);
      await page.getByRole("button", { name: "Create owner account" }).click();
      await expect(page).toHaveURL(/\/flows$/);
      const menu = page.getByTestId("user-menu");
      await expect(menu).toContainText(owner.name);
      await expect(menu).toContainText(`${owner.email} · owner`);
      await testInfo.attach("signed-in", {
        body: await page.screenshot({ fullPage: true }),
        contentType: "image/png",
      });

      const cookie = (await page.context().cookies()).find((c) => c.name === "sy_session");
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });
      expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);

      // /setup is closed once the owner exists.
      await page.goto(`${server.url}/setup`);
      await expect(page).toHaveURL(/\/flows$/);

      await menu.getByRole("button", { name: "Sign out" }).click();
      await expect(page).toHaveURL(/\/signin$/);
      expect((await page.context().cookies()).find((c) => c.name === "sy_session")).toBeUndefined();
      // The old session is gone on the server too, not only in this browser.
      const stale = await fetch(`${server.url}/api/trpc/flow.list`, {
        headers: { cookie: `sy_session=${cookie!.value}` },
      });
      expect(stale.status).toBe(401);

      await signIn(page, owner.email, "not the password at all");
      await expect(page.locator("#password-error")).toHaveText("invalid e-mail or password");
      await signIn(page, "someone.else@example.com", owner.password);
      await expect(page.locator("#password-error")).toHaveText("invalid e-mail or password");
      await testInfo.attach("wrong-password", {
        body: await page.screenshot({ fullPage: true }),
        contentType: "image/png",
      });

      await signIn(page, owner.email, owner.password);
      await expect(page).toHaveURL(/\/flows$/);
      await expect(page.getByTestId("user-menu")).toContainText(owner.email);

      // The owner's audit log shows what just happened.
      await page.goto(`${server.url}/settings/audit`);
      const rows = page.getByTestId("audit-row");
      await expect(rows.filter({ hasText: "auth.signin.failed" })).toHaveCount(2);
      await expect(rows.filter({ hasText: "auth.signin.succeeded" })).toHaveCount(1);
      await expect(rows.filter({ hasText: "user.created" })).toHaveCount(1);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a signed-out visit to a deep page returns there after sign-in", async ({ page }) => {
    const dir = tempDataDir();
    const server = await startServer(dir);
    try {
      const res = await page.goto(`${server.url}/runs?status=failed`);
      await expect(page).toHaveURL(/\/signin\?next=%2Fruns%3Fstatus%3Dfailed$/);
      // The security headers of next.config.ts still reach the pages behind the proxy.
      expect(res?.headers()).toMatchObject({
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff",
      });
      await signIn(page, e2eOwner.email, e2eOwner.password);
      await expect(page).toHaveURL(/\/runs\?status=failed$/);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an API key is shown once, works as a Bearer token, and stops working when revoked", async ({
    page,
  }) => {
    const dir = tempDataDir();
    const server = await startServer(dir);
    try {
      await useSession(page, server.url);
      await page.goto(`${server.url}/settings/api-keys`);
      await page.getByLabel("Name").fill("deploy script");
      await page.getByRole("button", { name: "Create key" }).click();
      const shown = page.getByLabel("New API key");
      await expect(shown).toHaveValue(/^sy_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
      const key = await shown.inputValue();
      await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();

      const ok = await fetch(`${server.url}/api/trpc/flow.list`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(ok.status).toBe(200);
      // A read key cannot write, whatever the owner's role.
      const write = await fetch(`${server.url}/api/trpc/flow.create`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ name: "x", definition: {} }),
      });
      expect(write.status).toBe(403);

      await page.reload();
      await expect(page.getByLabel("New API key")).toHaveCount(0);
      const row = page.getByTestId("api-key-row").filter({ hasText: "deploy script" });
      await expect(row).toContainText(key.slice(0, 12));
      page.once("dialog", (d) => void d.accept());
      await row.getByRole("button", { name: "Revoke" }).click();
      await expect(row).toContainText("revoked");
      const revoked = await fetch(`${server.url}/api/trpc/flow.list`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(revoked.status).toBe(401);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the owner adds a viewer who can read but not build", async ({ page, browser }) => {
    const dir = tempDataDir();
    const server = await startServer(dir);
    try {
      await useSession(page, server.url);
      await page.goto(`${server.url}/settings/users`);
      await page.getByLabel("E-mail").fill("vera@example.com");
      await page.getByLabel("First password").fill("vera password 1");
      await page.getByLabel("Role", { exact: true }).selectOption("viewer");
      await page.getByRole("button", { name: "Add user" }).click();
      await expect(page.getByTestId("user-row").filter({ hasText: "vera@example.com" })).toBeVisible();

      const vera = await browser.newContext();
      const vp = await vera.newPage();
      await vp.goto(`${server.url}/flows`);
      await signIn(vp, "vera@example.com", "vera password 1");
      await expect(vp).toHaveURL(/\/flows$/);
      await expect(vp.getByTestId("user-menu")).toContainText("viewer");
      await expect(vp.getByTestId("user-menu").getByRole("link", { name: "Users" })).toHaveCount(0);
      await vp.getByLabel("New flow name").fill("Not allowed");
      await vp.getByRole("button", { name: "Create flow" }).click();
      await expect(
        vp.getByRole("alert").filter({ hasText: "only owners and editors can do this" }),
      ).toBeVisible();
      await vera.close();
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("switchyard user create --owner sets up a fresh instance from the command line", async ({ page }) => {
    const dir = tempDataDir();
    try {
      expect((await userCreate(dir, ["--owner", "--email", "cli@example.com"], "irrelevant")).code).toBe(2);
      expect(
        await userCreate(dir, ["--owner", "--email", "cli@example.com", "--password-stdin"], "short"),
      ).toMatchObject({ code: 1 });
      const created = await userCreate(
        dir,
        ["--owner", "--email", "cli@example.com", "--password-stdin"],
        "cli owner password",
      );
      expect(created).toMatchObject({ code: 0, out: "created owner cli@example.com\n" });

      const server = await startServer(dir, {}, { setupOwner: false });
      try {
        await page.goto(`${server.url}/`);
        await expect(page).toHaveURL(/\/signin\?next=%2F$/);
        await signIn(page, "cli@example.com", "cli owner password");
        await expect(page).toHaveURL(/\/flows$/);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
