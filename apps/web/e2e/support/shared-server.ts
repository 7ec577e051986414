import { rmSync } from "node:fs";
import { test } from "@playwright/test";
import { type RunningServer, startServer, tempDataDir } from "./server";

/**
 * One signed-up server for every test of a spec file (tests run in order and share it); it is stopped
 * and its data dir removed after the last test. Read `shared.server` inside tests.
 */
export function sharedServer(): { server: RunningServer; dir: string } {
  const shared = {} as { server: RunningServer; dir: string };
  test.describe.configure({ mode: "serial" });
  test.beforeAll(async () => {
    shared.dir = tempDataDir();
    shared.server = await startServer(shared.dir);
  });
  test.afterAll(async () => {
    await shared.server?.stop();
    if (shared.dir) rmSync(shared.dir, { recursive: true, force: true });
  });
  return shared;
}
