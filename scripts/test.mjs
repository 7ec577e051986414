// `npm test`: lint and format check, typecheck, unit + integration tests in every package, then browser tests.
// `npm test -- --repeat N`: the unit and integration tests N times in a row (each in fresh processes), to
// catch tests that pass or fail by timing before they land; `--only runtime,web` limits the repeats.
import { ensureChromium } from "./ensure-chromium.mjs";
import { ensureDovecot } from "./ensure-dovecot.mjs";
import { ensureInstalled, run, step } from "./lib.mjs";

const { repeat, only } = parseArgs(process.argv.slice(2));

ensureInstalled();
step("lint and format (biome check: run `npm run format` to fix formatting)");
run("biome", ["check", "."]);
step("typecheck");
run("turbo", ["run", "typecheck", "--output-logs=errors-only"]);
step("precompiling the runtime (the CLI tests run it like production does)");
run("turbo", ["run", "build", "--filter=@switchyard/runtime", "--output-logs=errors-only"]);
// The IMAP trigger's tests start their own Dovecot from Debian's package.
ensureDovecot();
const filters = only.map((p) => `--filter=@switchyard/${p}`);
for (let i = 1; i <= repeat; i++) {
  step(
    `unit and integration tests (${only.length ? only.join(", ") : "every package"})${repeat > 1 ? `, round ${i} of ${repeat}` : ""}`,
  );
  run("turbo", ["run", "test", "--concurrency=1", ...filters]);
}
step("browser tests (Playwright + Debian chromium)");
ensureChromium();
run("turbo", ["run", "build", "--filter=@switchyard/web", "--output-logs=errors-only"]);
run("pnpm", ["--filter", "@switchyard/web", "exec", "playwright", "test"]);
console.log("\n✓ all checks passed");

function parseArgs(args) {
  let repeat = 1;
  let only = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--repeat") repeat = Number(args[++i]);
    else if (a === "--only") only = (args[++i] ?? "").split(",").filter(Boolean);
    else usage(`unknown argument ${a}`);
  }
  if (!Number.isInteger(repeat) || repeat < 1) usage("--repeat needs a whole number of rounds, 1 or more");
  return { repeat, only };
}

function usage(why) {
  console.error(`npm test: ${why}\nusage: npm test [-- --repeat N] [--only runtime,web,...]`);
  process.exit(2);
}
