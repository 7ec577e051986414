// `npm test`: lint, typecheck, unit + integration tests in every package, then browser tests.
import { ensureChromium } from "./ensure-chromium.mjs";
import { ensureInstalled, run, step } from "./lib.mjs";

ensureInstalled();
step("lint");
run("biome", ["lint", "."]);
step("typecheck");
run("turbo", ["run", "typecheck", "--output-logs=errors-only"]);
step("precompiling the runtime (the CLI tests run it like production does)");
run("turbo", ["run", "build", "--filter=@switchyard/runtime", "--output-logs=errors-only"]);
step("unit and integration tests (every package)");
run("turbo", ["run", "test", "--concurrency=1"]);
step("browser tests (Playwright + Debian chromium)");
ensureChromium();
run("turbo", ["run", "build", "--filter=@switchyard/web", "--output-logs=errors-only"]);
run("pnpm", ["--filter", "@switchyard/web", "exec", "playwright", "test"]);
console.log("\n✓ all checks passed");
