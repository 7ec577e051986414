import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** One hash over the contents of every file the bundle was built from. */
export function hashInputs(files) {
  const h = createHash("sha256");
  for (const f of files) h.update(f).update("\0").update(readFileSync(f)).update("\0");
  return h.digest("hex");
}

/** The bundle's URL when it was built from exactly the sources on disk now, else undefined. */
export function freshDist(distDir) {
  try {
    const { hash, inputs } = JSON.parse(readFileSync(new URL("inputs.json", distDir), "utf8"));
    return hashInputs(inputs) === hash ? new URL("switchyard.mjs", distDir) : undefined;
  } catch {
    return undefined;
  }
}
