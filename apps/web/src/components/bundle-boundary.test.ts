import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * What the browser loads: the components. They may read the shared schemas (@switchyard/contracts, zod
 * only) but must not pull a server package into the bundle; a type-only import is erased and allowed.
 */
const SERVER_PACKAGES = /^@switchyard\/(engine|nodes|runtime|db|agent|memory)(\/|$)/;
const root = path.dirname(new URL(import.meta.url).pathname);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Specifiers of the imports and re-exports that bring values in (not `import type` / `export type`). */
function valueImports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*["']([^"']+)["']/gm)) {
    if (!m[2]) found.push(m[4] ?? "");
  }
  for (const m of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1] ?? "");
  return found;
}

describe("browser bundle", () => {
  it("finds the imports it checks (a value import of the engine would be caught)", () => {
    expect(
      valueImports('import { runFlow } from "@switchyard/engine";\nimport type { X } from "@switchyard/db";'),
    ).toEqual(["@switchyard/engine"]);
  });

  it("components import no server package, only @switchyard/contracts", () => {
    const offenders = sources(root).flatMap((file) =>
      valueImports(readFileSync(file, "utf8"))
        .filter((s) => SERVER_PACKAGES.test(s))
        .map((s) => `${path.relative(root, file)}: ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});
