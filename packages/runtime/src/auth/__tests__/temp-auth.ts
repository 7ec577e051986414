import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, openDatabase } from "@switchyard/db";
import { createLogger } from "../../logger";
import { scryptParams } from "../password";
import { type AuthServiceOptions, createAuthService } from "../service";

// Real scrypt, lower cost: these tests are about accounts, not about hashing strength (password.test.ts is).
const fastScrypt = { ...scryptParams, N: 2 ** 10 };

/** An auth service over a migrated temp database, with a clock the test can move. */
export function tempAuth(opts: Partial<Omit<AuthServiceOptions, "db" | "log">> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "switchyard-auth-"));
  const db = openDatabase(path.join(dir, "switchyard.db"));
  applyMigrations(db.sql);
  const clock = { t: Date.now() };
  const auth = createAuthService({
    db,
    log: createLogger("silent"),
    now: () => clock.t,
    scrypt: fastScrypt,
    ...opts,
  });
  return {
    auth,
    db,
    clock,
    async cleanup() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
