import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { useSession } from "./support/auth";
import { runCli, startServer, tempDataDir, trpc } from "./support/server";

test.describe("foundation", () => {
  test("serves health and renders the app shell", async ({ page }, testInfo) => {
    const dir = tempDataDir();
    const server = await startServer(dir);
    try {
      const res = await fetch(`${server.url}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "ok", db: "ok" });

      await useSession(page, server.url);
      await page.goto(`${server.url}/`);
      await expect(page).toHaveURL(/\/flows$/);
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const label of ["Flows", "Runs", "Memory", "Agents", "Settings"]) {
        await expect(nav.getByRole("link", { name: label })).toBeVisible();
      }
      // First start seeds the example flow.
      await expect(page.getByRole("link", { name: "Hello webhook (example)" })).toBeVisible();
      await testInfo.attach("app-shell", {
        body: await page.screenshot({ fullPage: true }),
        contentType: "image/png",
      });
      await page.screenshot({ path: testInfo.outputPath("app-shell.png"), fullPage: true });

      // Every main page loads without a console error or a failed request, and the app names a tab icon.
      const problems: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(`${page.url()}: console error: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`${page.url()}: uncaught: ${e.message}`));
      page.on("requestfailed", (r) => {
        // Link prefetches the next navigation cancels are not failures.
        if (r.failure()?.errorText !== "net::ERR_ABORTED")
          problems.push(`${page.url()}: ${r.url()} failed: ${r.failure()?.errorText}`);
      });
      page.on("response", (r) => {
        if (r.status() >= 400) problems.push(`${page.url()}: ${r.url()} answered ${r.status()}`);
      });
      for (const route of ["/flows", "/runs", "/memory", "/agents", "/settings", "/api-docs"]) {
        await page.goto(`${server.url}${route}`);
        await page.waitForLoadState("networkidle");
      }
      expect(problems).toEqual([]);
      // Browsers fetch the tab icon after the page loads (headless ones often not at all): ask for it directly.
      const icons = await page
        .locator('link[rel="icon"]')
        .evaluateAll((links) => links.map((l) => l.getAttribute("href")));
      expect(icons, "every page names a tab icon (link rel=icon)").not.toEqual([]);
      expect((await fetch(new URL(icons[0]!, server.url))).status).toBe(200);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("keeps flows across a restart", async () => {
    const dir = tempDataDir();
    try {
      let server = await startServer(dir);
      const created = await trpc<{ id: string }>(
        server.url,
        "flow.create",
        { name: "Survives restarts", definition: { nodes: [], edges: [] } },
        "mutation",
      );
      expect(await server.stop()).toBe(0);

      server = await startServer(dir);
      const flows = await trpc<{ id: string; name: string }[]>(server.url, "flow.list");
      expect(flows.map((f) => f.name).sort()).toEqual(["Hello webhook (example)", "Survives restarts"]);
      expect(flows.find((f) => f.name === "Survives restarts")?.id).toBe(created.id);
      await server.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("refuses a second instance on the same data dir without touching the database", async () => {
    const dir = tempDataDir();
    const server = await startServer(dir);
    try {
      await trpc(server.url, "flow.create", { name: "Before", definition: { nodes: [] } }, "mutation");
      const second = runCli(["start"], { SWITCHYARD_DATA_DIR: dir, PORT: "0" });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(
        `data dir ${dir} is in use by another Switchyard process (pid ${server.process.pid})`,
      );

      // The first instance is unaffected and the file is intact.
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      const flows = await trpc<{ name: string }[]>(server.url, "flow.list");
      expect(flows.map((f) => f.name)).toContain("Before");
      const db = new Database(path.join(dir, "switchyard.db"), { readonly: true });
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      db.close();
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("exits with a one-line message naming an invalid variable and writes nothing", async () => {
    const parent = tempDataDir();
    const dir = path.join(parent, "never-created");
    const cli = runCli(["start"], { SWITCHYARD_DATA_DIR: dir, PORT: "abc" });
    expect(await cli.exited).toBe(1);
    expect(cli.output().trim()).toBe(
      'switchyard: invalid environment variable PORT="abc": expected a port number (0-65535, 0 = any free port)',
    );
    expect(existsSync(dir)).toBe(false);
    rmSync(parent, { recursive: true, force: true });
  });
});
