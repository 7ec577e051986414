import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
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

/**
 * One Switchyard process per data dir: two schedulers or SMTP listeners on one database would double-fire.
 * SQLite itself stays consistent either way; this lock makes the refusal explicit instead of subtle.
 * A lock left by a dead process (kill -9) is taken over.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "switchyard.lock");
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(file, "wx");
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
