import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "./config";
import { createHost } from "./host";
import { createLogger } from "./logger";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const mode = (p: string) => statSync(p).mode & 0o777;

async function open(dataDir: string) {
  const host = await createHost(parseConfig({ SWITCHYARD_DATA_DIR: dataDir }), createLogger("silent"), {
    seed: false,
  });
  const id = await host.services.attachments.store(Buffer.from("attached"), {
    filename: "a.txt",
    contentType: "text/plain",
  });
  return Object.assign(host, { attachment: host.services.attachments.pathOf(id)! });
}

describe("data dir permissions", () => {
  it("creates the data dir owner-only (0700) and the database, memory, key and attachments owner-only", async () => {
    const parent = mkdtempSync(path.join(tmpdir(), "sy-perm-"));
    dirs.push(parent);
    const dataDir = path.join(parent, "data");
    const host = await open(dataDir);
    try {
      expect(mode(dataDir)).toBe(0o700);
      for (const file of ["switchyard.db", "memory.db", "secret.key"])
        expect(mode(path.join(dataDir, file)), file).toBe(0o600);
      expect(mode(path.join(dataDir, "attachments"))).toBe(0o700);
      expect(mode(host.attachment)).toBe(0o600);
    } finally {
      await host.close();
    }
  });

  it("tightens a data dir and database left group- and world-readable by an earlier version", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "sy-perm-"));
    dirs.push(dataDir);
    await (await open(dataDir)).close();
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, "switchyard.db"), 0o644);
    chmodSync(path.join(dataDir, "memory.db"), 0o644);
    const host = await open(dataDir);
    try {
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.join(dataDir, "switchyard.db"))).toBe(0o600);
      expect(mode(path.join(dataDir, "memory.db"))).toBe(0o600);
    } finally {
      await host.close();
    }
  });
});
