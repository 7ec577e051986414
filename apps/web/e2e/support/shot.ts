import type { Page, TestInfo } from "@playwright/test";

/** Attaches a screenshot of the page to the test's report (the whole page unless `fullPage` is false). */
export async function shot(page: Page, testInfo: TestInfo, name: string, opts: { fullPage?: boolean } = {}) {
  await testInfo.attach(name, {
    body: await page.screenshot({ fullPage: opts.fullPage ?? true }),
    contentType: "image/png",
  });
}
