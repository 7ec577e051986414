import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { createHost } from "../host";
import { createLogger } from "../logger";
import { userCommand } from "./cli";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "switchyard-cli-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[], stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const code = await userCommand(args, parseConfig({ SWITCHYARD_DATA_DIR: dir }), createLogger("silent"), {
    stdin: Readable.from([stdin]),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("switchyard user create", () => {
  it("creates the owner from a password on stdin, which then signs in", async () => {
    const r = await run(
      ["create", "--owner", "--email", "Admin@Example.com", "--password-stdin"],
      "a strong password 1\n",
    );
    expect(r).toMatchObject({ code: 0, out: "created owner admin@example.com" });
    const host = await createHost(parseConfig({ SWITCHYARD_DATA_DIR: dir }), createLogger("silent"), {
      seed: false,
    });
    try {
      const s = await host.auth.signIn({
        email: "admin@example.com",
        password: "a strong password 1",
        ip: "cli",
      });
      expect(s.user.role).toBe("owner");
    } finally {
      await host.close();
    }
  });

  it("exits 1 with the reason for a short password or an existing address", async () => {
    expect(await run(["create", "--email", "a@example.com", "--password-stdin"], "short\n")).toMatchObject({
      code: 1,
      err: "switchyard: password must be at least 12 characters",
    });
    expect(
      (await run(["create", "--email", "a@example.com", "--password-stdin"], "long enough pass\n")).code,
    ).toBe(0);
    expect(
      await run(["create", "--email", "a@example.com", "--password-stdin"], "long enough pass\n"),
    ).toMatchObject({
      code: 1,
      err: "switchyard: a user with this e-mail address already exists",
    });
  });

  it("exits 2 on usage errors without touching the data dir", async () => {
    for (const args of [
      ["create", "--email", "a@example.com"],
      ["create", "--password-stdin"],
      ["create", "--email", "a@example.com", "--password-stdin", "--role", "admin"],
      ["delete", "--email", "a@example.com", "--password-stdin"],
      ["create", "--email", "a@example.com", "--password", "inline secret"],
    ]) {
      expect((await run(args, "long enough pass\n")).code).toBe(2);
    }
  });
});
