// `npm run setup`: install everything a fresh machine lacks (pnpm, dependencies, Prisma client).
import { ensureInstalled } from "./lib.mjs";

ensureInstalled();
console.log("\n✓ dependencies ready");
