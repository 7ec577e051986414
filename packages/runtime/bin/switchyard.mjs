#!/usr/bin/env node
// Runs the precompiled bundle (`pnpm --filter @switchyard/runtime build`, done by `npm start` and `npm test`)
// when it matches the sources on disk, else the TypeScript sources through tsx, so an edited checkout never
// runs stale code. `start` always uses the sources: the web app it serves imports the runtime package at
// run time and must share its module instances. SWITCHYARD_FROM_SOURCE=1 forces the sources.
import { freshDist } from "../scripts/dist-check.mjs";

process.env.NODE_ENV ??= "production";
const dist = process.argv[2] !== "start" && process.env.SWITCHYARD_FROM_SOURCE !== "1" ? freshDist(new URL("../dist/", import.meta.url)) : undefined;
if (dist) await import(dist.href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli.ts");
}
