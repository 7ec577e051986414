import { readFileSync } from "node:fs";

/** Product version from the root package.json, read once. */
export const version: string = (() => {
  try {
    const url = new URL("../../../package.json", import.meta.url);
    return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
})();

/** How this process runs the runtime: the precompiled bundle defines SWITCHYARD_BUNDLED at build time. */
export const codeOrigin: "precompiled" | "TypeScript sources" =
  process.env.SWITCHYARD_BUNDLED === "1" ? "precompiled" : "TypeScript sources";
