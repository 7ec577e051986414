import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** chmod, except where we may not (a folder someone else owns and shares with us): then it stays as it is. */
function tighten(target: string, mode: number): void {
  try {
    chmodSync(target, mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") throw e;
  }
}

/**
 * The data dir holds the database, the secret key and attachments: owner-only (0700), also when an earlier
 * version created it with the default 0755.
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir, 0o700);
}

/** Creates the file if missing, owner-only (0600); SQLite gives its -wal and -shm files the same mode. */
export function makePrivateFile(file: string): void {
  closeSync(openSync(file, "a", 0o600));
  tighten(file, 0o600);
}

/**
 * One Switchyard process per data dir: two schedulers or SMTP listeners on one database would double-fire.
 * SQLite itself stays consistent either way; this lock makes the refusal explicit instead of subtle.
 * A lock left by a dead process (kill -9) is taken over.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  makePrivateDir(dataDir);
  const file = path.join(dataDir, "switchyard.lock");
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release() {
          try {
            if (readFileSync(file, "utf8") === String(process.pid)) unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) {
        throw new DataDirLockedError(
          `data dir ${dataDir} is in use by another Switchyard process (pid ${pid}); stop it or set SWITCHYARD_DATA_DIR to another folder`,
        );
      }
      try {
        unlinkSync(file);
      } catch {
        // another process won the race to clean it; retry
      }
    }
  }
  throw new DataDirLockedError(`could not lock data dir ${dataDir}`);
}
