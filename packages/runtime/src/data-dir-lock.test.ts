import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lockDataDir } from "./data-dir-lock";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(path.join(tmpdir(), "sy-lock-"));
  dirs.push(d);
  return d;
};

describe("lockDataDir", () => {
  it("refuses a data dir held by a live process, naming its pid", async () => {
    const dir = temp();
    const child = spawn(process.execPath, ["-e", "setTimeout(()=>{}, 30000)"]);
    await new Promise((r) => child.once("spawn", r));
    writeFileSync(path.join(dir, "switchyard.lock"), String(child.pid));
    try {
      expect(() => lockDataDir(dir)).toThrow(
        `data dir ${dir} is in use by another Switchyard process (pid ${child.pid}); stop it or set SWITCHYARD_DATA_DIR to another folder`,
      );
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("takes over a lock left by a process that died", async () => {
    const dir = temp();
    const child = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => child.once("exit", r));
    writeFileSync(path.join(dir, "switchyard.lock"), String(child.pid));
    const lock = lockDataDir(dir);
    expect(readFileSync(path.join(dir, "switchyard.lock"), "utf8")).toBe(String(process.pid));
    lock.release();
  });
});
