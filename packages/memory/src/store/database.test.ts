import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";

// Another process holds the write lock for 6.5 s: longer than the 5 s any statement waits once the store is open.
const HOLD_MS = 6_500;
const holder = (file: string) => `
  const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve("better-sqlite3"))});
  const db = new Database(${JSON.stringify(file)});
  db.exec("BEGIN IMMEDIATE");
  console.log("locked");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${HOLD_MS});
  db.exec("COMMIT");
`;

describe("opening a memory store", () => {
  it("waits for another process's long set-up (a migration, the int8 copy's first build) instead of failing after 5 s", async () => {
    const first = tempMemory({ vectorBackend: "brute-force" });
    await first.ingest.addMany([{ key: "note", content: "invoice reminder" }]);
    first.close();
    const child = spawn(process.execPath, ["-e", holder(first.file)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise((r) => child.on("exit", r));
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    const second = tempMemory({ file: first.file, vectorBackend: "brute-force" });
    expect(second.reader.status().items).toBe(1);
    expect(await exited).toBe(0);
  }, 30_000);
});
