// The esbuild rules shared by the production bundle (build-dist.mjs) and bundled benches
// (bench/bundled.mjs), so a bench measures the memory and speed of the code production runs.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Workspace TypeScript is bundled; third-party packages stay imports of where pnpm installed them. */
export const switchyardDistPlugin = {
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

// Bundled CommonJS-style `require` calls need a require function in an ES module.
export const bundleBanner = {
  js: "import { createRequire as __swCreateRequire } from 'node:module'; const require = __swCreateRequire(import.meta.url);",
};
