// Precompiles the runtime CLI and the workspace packages it imports into one ES module, so production
// processes run plain JavaScript: no TypeScript compiler and module-loader thread in every process
// (≈ 60 MB less resident memory) and no per-closure name wrappers on the hot path.
// Third-party packages are not bundled; they are imported from where pnpm installed them. The result
// is machine-local build output (absolute paths), like node_modules; bin/switchyard.mjs uses it only
// while a hash of every input still matches (see dist-check.mjs).
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { hashInputs } from "./dist-check.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, "..");
const repo = path.resolve(pkg, "../..");

const plugin = {
  name: "switchyard-dist",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (
        args.path.startsWith("@switchyard/") ||
        args.path.startsWith("node:") ||
        args.pluginData === "inner"
      )
        return;
      const r = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: "inner",
      });
      if (r.errors.length > 0 || !r.path.includes(`${path.sep}node_modules${path.sep}`)) return;
      return { path: r.path, external: true };
    });
    // `import.meta.url` keeps meaning "this source file": assets, migrations and agents are found next to it.
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      return {
        contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
        loader: "ts",
      };
    });
  },
};

const outdir = path.join(pkg, "dist");
await mkdir(outdir, { recursive: true });
// Chunks are named by content hash: drop the previous build's files so the folder holds one build.
for (const f of await readdir(outdir)) if (/\.mjs(\.map)?$/.test(f)) await rm(path.join(outdir, f));
const result = await build({
  entryPoints: [path.join(pkg, "src/cli.ts")],
  outdir,
  entryNames: "switchyard",
  // Code split at dynamic imports: scale-out (BullMQ, ioredis, pg) loads only when configured, instead of
  // costing every SQLite start-up the second or more those imports take.
  splitting: true,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  metafile: true,
  logLevel: "warning",
  plugins: [plugin],
  absWorkingDir: pkg,
  define: { "process.env.SWITCHYARD_BUNDLED": JSON.stringify("1") },
  // Bundled CommonJS-style `require` calls need a require function in an ES module.
  banner: {
    js: "import { createRequire as __swCreateRequire } from 'node:module'; const require = __swCreateRequire(import.meta.url);",
  },
});
const inputs = Object.keys(result.metafile.inputs)
  .filter((f) => !f.includes("node_modules"))
  .map((f) => path.resolve(pkg, f));
// The lockfile pins the third-party paths the bundle imports.
inputs.push(path.join(repo, "pnpm-lock.yaml"));
await writeFile(
  path.join(outdir, "inputs.json"),
  JSON.stringify({ hash: hashInputs(inputs), inputs }, null, 1),
);
console.log(`dist/switchyard.mjs from ${inputs.length - 1} source files`);
