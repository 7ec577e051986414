// `npm start`: install (if needed), build the web app (cached by turbo), migrate, seed, serve.
import { spawn } from "node:child_process";
import path from "node:path";
import { childEnv, ensureInstalled, root, run, step } from "./lib.mjs";

ensureInstalled();
step("building the web app (skipped when nothing changed) and the precompiled runtime");
run("turbo", [
  "run",
  "build",
  "--filter=@switchyard/web",
  "--filter=@switchyard/runtime",
  "--output-logs=errors-only",
]);
step("starting Switchyard");
const child = spawn(process.execPath, [path.join(root, "packages/runtime/bin/switchyard.mjs"), "start"], {
  cwd: root,
  stdio: "inherit",
  env: childEnv(),
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
