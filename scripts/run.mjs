// Runs a workspace tool (turbo, biome …) with the project's environment, installing first if needed.
import { ensureInstalled, run } from "./lib.mjs";

const [cmd, ...args] = process.argv.slice(2);
ensureInstalled();
run(cmd, args);
