import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations } from "../migrate";
import { type DatabaseHandle, openDatabase } from "../open";

/** A migrated database in a fresh temp folder; call cleanup() in afterEach. */
export function tempDatabase(): DatabaseHandle & { dir: string; cleanup(): Promise<void> } {
  const dir = mkdtempSync(path.join(tmpdir(), "switchyard-db-"));
  const handle = openDatabase(path.join(dir, "switchyard.db"));
  applyMigrations(handle.sql);
  return {
    ...handle,
    dir,
    async cleanup() {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
