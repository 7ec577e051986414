// The bin runs the precompiled bundle only while it matches the sources; a stale bundle must never run.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freshDist, hashInputs } from "./dist-check.mjs";

let dir;
let distDir;
let source;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-dist-"));
  distDir = pathToFileURL(`${dir}/`);
  source = path.join(dir, "a.ts");
  writeFileSync(source, "export const a = 1;\n");
  writeFileSync(
    path.join(dir, "inputs.json"),
    JSON.stringify({ hash: hashInputs([source]), inputs: [source] }),
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("freshDist", () => {
  it("names the bundle while every source it was built from is unchanged", () => {
    expect(freshDist(distDir)?.href).toBe(pathToFileURL(path.join(dir, "switchyard.mjs")).href);
  });

  it("refuses the bundle once a source changes, even by one byte", () => {
    writeFileSync(source, "export const a = 2;\n");
    expect(freshDist(distDir)).toBeUndefined();
  });

  it("refuses the bundle when a source is gone or there is no manifest", () => {
    rmSync(source);
    expect(freshDist(distDir)).toBeUndefined();
    rmSync(path.join(dir, "inputs.json"));
    expect(freshDist(distDir)).toBeUndefined();
  });
});
