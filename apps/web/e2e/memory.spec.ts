import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { useSession } from "./support/auth";
import { trpc } from "./support/server";
import { sharedServer } from "./support/shared-server";

const shared = sharedServer();
test.use({ viewport: { width: 1400, height: 1000 } });

test("a person adds, finds, edits around, imports and deletes memory", async ({ page }) => {
  await useSession(page, shared.server.url);
  await page.goto(`${shared.server.url}/memory`);
  await expect(page.getByRole("heading", { name: "Memory is empty" })).toBeVisible();

  // Add an item.
  await page.getByRole("button", { name: "Add item" }).click();
  const form = page.getByRole("form", { name: "New item" });
  await form.getByLabel("Title").fill("Refund approvals");
  await form.getByLabel("Content").fill("Refunds above $200 need a second approver, either Dev or Maya.");
  await form.getByLabel("Tags (comma-separated)").fill("money, policy");
  await form.getByRole("button", { name: "Add" }).click();
  const items = page.getByRole("list", { name: "Memory items" });
  await expect(items.getByTestId("memory-item-key")).toHaveText(["Refund approvals"]);

  // Search finds it, with its score, in each mode.
  await page.getByRole("searchbox", { name: "Search memory" }).fill("who approves a refund");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const hit = page.getByTestId("memory-hit").first();
  await expect(hit.getByTestId("memory-hit-key")).toHaveText("Refund approvals");
  await expect(hit.getByTestId("memory-hit-score")).toHaveText(/^score 1\.00 · lexical #1 · semantic #1$/);
  await expect(hit.getByTestId("memory-tag")).toHaveText(["#money", "#policy"]);
  await page.getByRole("radio", { name: "Semantic" }).check();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  // Semantic scores are word-by-word relevance in (0, 1]: every query word matched ("approves" ~ "approver") is 1.00.
  await expect(page.getByTestId("memory-hit-score").first()).toHaveText(
    /^score (0\.\d\d|1\.00) · semantic #1$/,
  );

  // Edit PROFILE.md.
  await page.getByLabel("Document").selectOption({ label: "PROFILE.md" });
  await page.locator("#memory-doc-text").fill("# Maya Lin\nOwner of Lumen Print Co. Prefers short e-mails.");
  await page.getByRole("button", { name: "Save PROFILE.md" }).click();
  await expect(page.getByRole("status")).toContainText("Saved at");
  const docs = await trpc<{ profile: string }>(shared.server.url, "memory.documents");
  expect(docs.profile).toBe("# Maya Lin\nOwner of Lumen Print Co. Prefers short e-mails.");

  // Import a small markdown file; progress reaches 100 %.
  const file = path.join(shared.dir, "courier.md");
  writeFileSync(
    file,
    "---\ntags: [shipping]\n---\n# Courier pickups\nThe courier collects parcels at 4pm on weekdays.\n",
  );
  const importer = page.getByRole("region", { name: "Import", exact: true });
  await importer.getByLabel("File", { exact: true }).setInputFiles(file);
  await importer.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("job-percent")).toHaveText("100%");
  await expect(page.getByRole("progressbar", { name: "Import courier.md" })).toHaveAttribute(
    "aria-valuenow",
    "100",
  );
  await expect(page.getByTestId("job-progress")).toContainText("Imported: 1 added, 0 updated");
  await expect(items.getByTestId("memory-item-key")).toHaveText(["Courier pickups", "Refund approvals"]);
  await expect(items.getByTestId("memory-source").first()).toHaveText("upload:courier.md");

  // An unsupported file is refused where it was chosen.
  const bad = path.join(shared.dir, "photo.png");
  writeFileSync(bad, "not really a png");
  await importer.getByLabel("File", { exact: true }).setInputFiles(bad);
  await importer.getByRole("button", { name: "Import" }).click();
  await expect(importer.getByRole("alert")).toContainText("unsupported file type '.png'");

  // Delete the item (after confirming).
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Delete Refund approvals" }).click();
  await expect(items.getByTestId("memory-item-key")).toHaveText(["Courier pickups"]);
  const left = await trpc<{ total: number; items: { key: string }[] }>(shared.server.url, "memory.list", {});
  expect(left.items.map((i) => i.key)).toEqual(["Courier pickups"]);
});
