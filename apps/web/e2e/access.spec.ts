import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { startServer, tempDataDir } from "./support/server";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src/app");

/** Every route handler and page in the app, as URL paths (dynamic segments get a sample value). */
function walk(dir: string, prefix = ""): { routes: string[]; pages: string[] } {
  const out = { routes: [] as string[], pages: [] as string[] };
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      const seg = name.startsWith("[") ? "sample-id" : name;
      const sub = walk(full, `${prefix}/${seg}`);
      out.routes.push(...sub.routes);
      out.pages.push(...sub.pages);
    } else if (name === "route.ts") out.routes.push(prefix);
    else if (name === "page.tsx") out.pages.push(prefix || "/");
  }
  return out;
}

// The documented exceptions: liveness for load balancers, and the pages that let you in.
const PUBLIC_ROUTES = ["/api/health"];
const PUBLIC_PAGES = ["/setup", "/signin"];

test("every route handler and page refuses an anonymous visitor, except the documented ones", async ({
  request,
}) => {
  const { routes, pages } = walk(appDir);
  expect(routes.length).toBeGreaterThanOrEqual(4);
  expect(pages.length).toBeGreaterThanOrEqual(10);
  const dir = tempDataDir();
  const server = await startServer(dir); // an owner exists, so pages lead to /signin, not /setup
  try {
    for (const route of routes) {
      const url = `${server.url}${route.replace("/api/trpc/sample-id", "/api/trpc/flow.list")}`;
      const res = await request.fetch(url, {
        method: route.includes("import") ? "POST" : "GET",
        maxRedirects: 0,
      });
      if (PUBLIC_ROUTES.includes(route)) expect(res.status(), route).toBe(200);
      else expect([401, 403], `${route} answered ${res.status()}`).toContain(res.status());
    }
    for (const page of pages) {
      const res = await request.get(`${server.url}${page}`, { maxRedirects: 0 });
      if (PUBLIC_PAGES.includes(page)) expect(res.status(), page).toBeLessThan(400);
      else {
        expect([302, 303, 307, 308], `${page} answered ${res.status()}`).toContain(res.status());
        expect(res.headers().location, page).toMatch(/\/signin/);
      }
    }
    // The REST API and webhooks answer for themselves: no key → 401; an unknown hook → 404, never data.
    expect((await request.get(`${server.url}/api/v1/flows`)).status()).toBe(401);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
