// Browser tests use Debian's Chromium (Playwright's own download is not available offline).
import { existsSync } from "node:fs";
import { run, step } from "./lib.mjs";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function ensureChromium() {
  if (existsSync(chromiumPath)) return;
  if (process.getuid?.() === 0) {
    step("installing Debian's chromium for the browser tests");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "chromium"], { env: { DEBIAN_FRONTEND: "noninteractive" } });
    return;
  }
  console.error(
    `\n✗ Browser tests need Chromium at ${chromiumPath}.\n  Install it with: sudo apt-get install -y chromium\n  (or set CHROMIUM_PATH to another Chromium binary)`,
  );
  process.exit(1);
}
