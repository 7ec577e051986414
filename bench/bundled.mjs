// Runs a bench script the way production runs our code: bundled by esbuild with the runtime's own rules
// (packages/runtime/scripts/bundle-plugin.mjs), then by plain node. Under tsx a process also carries the
// TypeScript loader's thread (≈ 37 MB of RSS), so figures of peak memory are only comparable bundled.
// Run from the repo root: node bench/bundled.mjs bench/memory-speed.ts [its arguments]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleBanner, switchyardDistPlugin } from "../packages/runtime/scripts/bundle-plugin.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const [script, ...args] = process.argv.slice(2);
if (!script) {
  console.error("usage: node bench/bundled.mjs <bench script> [arguments]");
  process.exit(2);
}
// esbuild is the runtime package's build dependency.
const { build } = createRequire(path.join(here, "../packages/runtime/package.json"))("esbuild");
const dir = mkdtempSync(path.join(tmpdir(), "bench-bundle-"));
const outfile = path.join(dir, `${path.basename(script, path.extname(script))}.mjs`);
try {
  await build({
    entryPoints: [path.resolve(script)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
    plugins: [switchyardDistPlugin],
    banner: bundleBanner,
  });
  const run = spawnSync(process.execPath, [outfile, ...args], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
