#!/usr/bin/env -S node --max-semi-space-size=8
// Runs the precompiled bundle (`pnpm --filter @switchyard/runtime build`, done by `npm start` and `npm test`)
// when it matches the sources on disk, else the TypeScript sources through tsx, so an edited checkout never
// runs stale code. SWITCHYARD_FROM_SOURCE=1 forces the sources. (The web app served by `start` gets the
// runtime and nodes packages from the host through host-registry, so it works with either.)
import { setFlagsFromString } from "node:v8";
import { freshDist } from "../scripts/dist-check.mjs";

// WebAssembly here is Prisma's query compiler and the QuickJS sandbox. Optimising it with TurboFan in the
// background costs ≈ 70 MB of resident memory for the life of the process (compiler memory glibc keeps);
// the baseline compiler alone keeps a server at ≈ 140 MB idle, for ≈ 20 % slower loops in Code nodes.
setFlagsFromString("--liftoff-only");
// V8 lets the old generation grow to ~4× its live size between full collections while collecting is cheap:
// under sustained webhook load that is 150 MB of garbage. 1.5× keeps a busy server under ~200 MB for a few
// more incremental marking cycles (no measurable throughput change in bench/webhook.ts).
setFlagsFromString("--heap-growing-percent=50");
// The young generation's cap (--max-semi-space-size=8 in the shebang above and in `npm start`'s command: V8
// sizes it when the process starts, so setFlagsFromString here would be too late). A run leaves next to
// nothing alive past a minor GC, so 8 MB semi-spaces instead of 16 cost no throughput and save ≈ 13 MB of
// resident memory under webhook load (bench/webhook-gc.ts --node-args, docs/benchmarks.md, session 10).

process.env.NODE_ENV ??= "production";
const dist =
  process.env.SWITCHYARD_FROM_SOURCE !== "1" ? freshDist(new URL("../dist/", import.meta.url)) : undefined;
if (dist) await import(dist.href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli.ts");
}
