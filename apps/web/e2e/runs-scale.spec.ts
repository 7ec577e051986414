// Item 7 of issue #21 in a real browser: the runs page's counts, filters and full-text search over
// stored runs, and the retention page's default policy, size, growth and storage budget warning.
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { useSession } from "./support/auth";
import { type RunningServer, startServer, tempDataDir, trpc } from "./support/server";

let server: RunningServer;
let dir: string;
const flows: { id: string; name: string }[] = [];
const DAY = 86_400_000;
const statuses = ["succeeded", "succeeded", "failed", "cancelled"] as const; // finished: retention may delete them
const channels = ["webhook", "email", "cron"] as const;
const N = 1200;

/** What the seed holds, so the page's figures are checked against numbers computed here. */
const seeded: { status: string; channel: string; flow: number; ageDays: number; text: string }[] = [];

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1500, height: 1000 } });

test.beforeAll(async () => {
  dir = tempDataDir();
  server = await startServer(dir);
  for (const name of ["Orders", "Invoices"])
    flows.push({
      name,
      ...(await trpc<{ id: string }>(
        server.url,
        "flow.create",
        { name, definition: { nodes: [] } },
        "mutation",
      )),
    });
  seed(N, (i) => (i % 13) + 0.5, "customer"); // 0.5 … 12.5 days old: inside the default 14 days
});

/**
 * Inserts runs straight into the running server's database, as an older version would have left them:
 * this version's triggers keep the counts and the search index, exactly as for runs the queue writes.
 */
function seed(n: number, ageDays: (i: number) => number, word: string) {
  const db = new Database(path.join(dir, "switchyard.db"));
  db.pragma("busy_timeout = 5000");
  const insert = db.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, createdAt, errorMessage, durationMs)
     VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const status = statuses[i % statuses.length]!;
      const channel = channels[i % channels.length]!;
      const flow = i % 2;
      const age = ageDays(i);
      const at = new Date(now - age * DAY).toISOString().replace("Z", "+00:00");
      const customer = i % 100 === 7 ? "Zanzibar Trading" : `${word} ${i}`;
      const error =
        status === "failed" ? (i % 40 === 2 ? "gateway refused the card" : "timeout upstream") : null;
      insert.run(
        randomUUID(),
        flows[flow]!.id,
        status,
        channel,
        JSON.stringify({ customer }),
        at,
        at,
        error,
        i,
      );
      seeded.push({ status, channel, flow, ageDays: age, text: `${customer} ${error ?? ""}` });
    }
  })();
  db.close();
}

test.afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const count = (f: (r: (typeof seeded)[number]) => boolean) => seeded.filter(f).length;

test("[7] the runs page counts, filters and searches stored runs", async ({ page }) => {
  await useSession(page, server.url);
  await page.goto(`${server.url}/runs`);
  await expect(page.getByTestId("count-all")).toHaveText(String(N));
  await expect(page.getByTestId("count-failed")).toHaveText(String(count((r) => r.status === "failed")));
  await expect(page.getByTestId("run-row")).toHaveCount(50);

  // Search: whole words in payloads and errors, any case; the counts follow the search.
  const search = page.getByLabel("Search runs");
  await search.fill("zanzibar");
  await page.getByRole("button", { name: "Search" }).click();
  const zanzibar = count((r) => r.text.includes("Zanzibar"));
  await expect(page.getByTestId("count-all")).toHaveText(String(zanzibar));
  await expect(page.getByTestId("run-row")).toHaveCount(zanzibar);

  await search.fill("gateway");
  await page.getByRole("button", { name: "Search" }).click();
  const gateway = count((r) => r.text.includes("gateway"));
  await expect(page.getByTestId("count-all")).toHaveText(String(gateway));
  await expect(page.getByTestId("run-row")).toHaveCount(gateway);
  await expect(page.getByTestId("run-row").first()).toContainText("gateway refused the card");

  // A channel and a status on top of the search.
  await page.getByLabel("Channel").selectOption("email");
  const gatewayEmail = count((r) => r.text.includes("gateway") && r.channel === "email");
  await expect(page.getByTestId("count-all")).toHaveText(String(gatewayEmail));
  await expect(page.getByTestId("run-row")).toHaveCount(gatewayEmail);
  for (const row of await page.getByTestId("run-row").all()) await expect(row).toContainText("email");

  // Without the search: channel and status chips, counted from the maintained counters.
  await search.fill("");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("count-all")).toHaveText(String(count((r) => r.channel === "email")));
  await page.getByTestId("status-chip-cancelled").click();
  await expect(page).toHaveURL(/status=cancelled/);
  await expect(page.getByTestId("count-cancelled")).toHaveText(
    String(count((r) => r.channel === "email" && r.status === "cancelled")),
  );
  for (const row of await page.getByTestId("run-row").all()) await expect(row).toContainText("cancelled");

  // A search with nothing to look for is refused with the reason, not answered with everything.
  await page.goto(`${server.url}/runs?q=%25%25`);
  await expect(page.getByText("has no letter or digit to look for")).toBeVisible();
});

test("[7] the retention page shows the default policy, size and growth, and warns before the budget", async ({
  page,
}) => {
  await useSession(page, server.url);
  await page.goto(`${server.url}/settings/retention`);
  await expect(page.getByTestId("default-policy")).toContainText(
    "No policy has been saved, so the default applies",
  );
  await expect(page.getByLabel("Keep runs for (days)", { exact: true })).toHaveValue("14");
  await expect(page.getByLabel("Keep at most (runs per flow)", { exact: true })).toHaveValue("10000");
  await expect(page.getByTestId("runs-stored")).toContainText(`${N.toLocaleString("en")} (`);
  await expect(page.getByTestId("db-growth")).toContainText(/about \d+\.\d MB a day/);
  await expect(page.getByTestId("db-budget")).toHaveText("none");

  // Runs an older version kept forever: pruning with the default deletes those older than 14 days, and
  // search forgets them. (The server's own first pruning may beat the button to it: same outcome.)
  seed(300, (i) => 15 + (i % 20), "archived");
  await page.getByRole("button", { name: "Prune now" }).click();
  await expect(page.getByText(/Deleted \d+ runs\./)).toBeVisible();
  await expect(page.getByTestId("runs-stored")).toContainText(`${N.toLocaleString("en")} (`);
  const gone = await trpc<{ total: number }>(server.url, "run.counts", { search: "archived" });
  expect(gone.total).toBe(0);

  // A budget just below the database's size: the warning shows here and on the runs page.
  const storage = await trpc<{ size: { databaseBytes: number; freeBytes: number; walBytes: number } }>(
    server.url,
    "run.retention.storage",
  );
  const used = storage.size.databaseBytes - storage.size.freeBytes + storage.size.walBytes;
  const budgetMb = Math.max(1, Math.floor((used / 0.9 / 1024 / 1024) * 10) / 10);
  await page.getByLabel("Storage budget (MB)").fill(String(budgetMb));
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByRole("button", { name: "Saved" })).toBeVisible();
  await expect(page.getByTestId("default-policy")).toHaveCount(0);
  await expect(page.getByTestId("db-budget")).toContainText("% used");
  await expect(page.getByTestId("storage-warning")).toContainText("storage budget");
  await page.goto(`${server.url}/runs`);
  await expect(page.getByTestId("storage-warning")).toContainText("storage budget");
  await expect(page.getByRole("link", { name: "Retention settings" })).toBeVisible();
  await page.goto(`${server.url}/runs?q=zanzibar`);
  await expect(page.getByTestId("count-all")).toHaveText(
    String(count((r) => r.text.includes("Zanzibar") && r.ageDays <= 14)),
  );
});
