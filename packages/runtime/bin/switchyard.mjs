#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: no separate build step for the runtime.
import { register } from "tsx/esm/api";

process.env.NODE_ENV ??= "production";
register();
await import("../src/cli.ts");
