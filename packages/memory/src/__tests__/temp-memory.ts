import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { type OpenMemoryOptions, openMemory } from "../open-memory";

const dirs: string[] = [];
const closers: Array<() => void> = [];

afterEach(() => {
  while (closers.length > 0) closers.pop()!();
  while (dirs.length > 0) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A fresh temp directory, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "switchyard-memory-"));
  dirs.push(dir);
  return dir;
}

/** openMemory on a real SQLite file in a temp directory; closed after the test. */
export function tempMemory(options: Partial<OpenMemoryOptions> = {}) {
  const file = options.file ?? join(tempDir(), "memory.db");
  const logs: string[] = [];
  const memory = openMemory({ log: (l) => logs.push(l), ...options, file });
  closers.push(() => memory.close());
  return { ...memory, file, logs };
}
