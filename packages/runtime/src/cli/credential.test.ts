import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { DataDirLockedError } from "../data-dir-lock";
import { createHost } from "../host";
import { createLogger } from "../logger";
import { credentialCommand } from "./credential";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "switchyard-cred-cli-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}) => ({ SWITCHYARD_DATA_DIR: dir, ...extra });

async function run(args: string[], extra: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await credentialCommand(args, parseConfig(env(extra)), createLogger("silent"), {
    stdin: Readable.from([""]),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err };
}

const A = { token: "tok-a", allowedHosts: "api.example.com" };
const B = { apiKey: "sk-b", allowedHosts: "api.openai.com" };

/** Stores two credentials through a real host, then closes it (the command needs the data dir free). */
async function seedCredentials(extra: Record<string, string> = {}) {
  const host = await createHost(parseConfig(env(extra)), createLogger("silent"), { seed: false });
  try {
    const a = await host.services.vault.create({ name: "a", type: "httpBearer", data: A });
    const b = await host.services.vault.create({ name: "b", type: "llmProvider", data: B });
    return [a.id, b.id] as const;
  } finally {
    await host.close();
  }
}

async function readAll(ids: readonly string[], extra: Record<string, string> = {}) {
  const host = await createHost(parseConfig(env(extra)), createLogger("silent"), { seed: false });
  try {
    return await Promise.all(ids.map(async (id) => (await host.services.vault.reader.get(id)).data));
  } finally {
    await host.close();
  }
}

describe("switchyard credential rotate-key", () => {
  it("re-encrypts every credential under a new key file that the next start reads", async () => {
    const ids = await seedCredentials();
    const keyFile = path.join(dir, "secret.key");
    const before = readFileSync(keyFile, "utf8");
    const r = await run(["rotate-key"]);
    expect(r).toEqual({
      code: 0,
      out: [`re-encrypted 2 credentials under a new key in ${keyFile}`],
      err: [],
    });
    expect(readFileSync(keyFile, "utf8")).not.toBe(before);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(existsSync(`${keyFile}.next`)).toBe(false);
    expect(await readAll(ids)).toEqual([A, B]);
  });

  it("prints the new key once when the key comes from the environment", async () => {
    const oldKey = randomBytes(32).toString("base64");
    const ids = await seedCredentials({ SWITCHYARD_ENCRYPTION_KEY: oldKey });
    const r = await run(["rotate-key"], { SWITCHYARD_ENCRYPTION_KEY: oldKey });
    expect(r.code).toBe(0);
    expect(r.out.slice(0, 2)).toEqual([
      "re-encrypted 2 credentials under a new key.",
      "Set SWITCHYARD_ENCRYPTION_KEY to this value before the next start:",
    ]);
    const newKey = r.out[2]!;
    expect(Buffer.from(newKey, "base64")).toHaveLength(32);
    expect(await readAll(ids, { SWITCHYARD_ENCRYPTION_KEY: newKey })).toEqual([A, B]);
    await expect(readAll(ids, { SWITCHYARD_ENCRYPTION_KEY: oldKey })).rejects.toThrow(
      /encrypted with another key/,
    );
  });

  it("changes nothing when the key is wrong", async () => {
    const ids = await seedCredentials();
    const keyFile = path.join(dir, "secret.key");
    const right = readFileSync(keyFile, "utf8");
    writeFileSync(keyFile, randomBytes(32).toString("base64"));
    await expect(run(["rotate-key"])).rejects.toThrow(/could not re-encrypt: .*nothing was changed/);
    expect(existsSync(`${keyFile}.next`)).toBe(false);
    writeFileSync(keyFile, right);
    expect(await readAll(ids)).toEqual([A, B]);
  });

  it("refuses while the server holds the data dir, and explains an interrupted rotation", async () => {
    await seedCredentials();
    // A live process other than this one holds the lock, as a running server would.
    writeFileSync(path.join(dir, "switchyard.lock"), String(process.ppid));
    await expect(run(["rotate-key"])).rejects.toBeInstanceOf(DataDirLockedError);
    rmSync(path.join(dir, "switchyard.lock"));
    writeFileSync(path.join(dir, "secret.key.next"), "x");
    await expect(run(["rotate-key"])).rejects.toThrow(
      "secret.key.next exists: an earlier rotation was interrupted",
    );
  });

  it("shows its help and rejects unknown sub-commands", async () => {
    expect((await run(["--help"])).code).toBe(0);
    await expect(run(["rotate"])).rejects.toThrow("unknown credential command 'rotate'");
  });
});

describe("switchyard credential list / allow-hosts", () => {
  it("lists each credential with the hosts it may be sent to", async () => {
    await seedCredentials();
    const r = await run(["list"]);
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      expect.stringMatching(/^a \(httpBearer, [\w-]+\): api\.example\.com$/),
      expect.stringMatching(/^b \(llmProvider, [\w-]+\): api\.openai\.com$/),
    ]);
  });

  it("sets the allowed hosts of a credential named by name, keeping its secret", async () => {
    const ids = await seedCredentials();
    const r = await run(["allow-hosts", "a", "api.example.com", "*.example.org"]);
    expect(r).toEqual({ code: 0, out: ["a may now be sent to: api.example.com, *.example.org"], err: [] });
    expect(await readAll([ids[0]])).toEqual([
      { token: "tok-a", allowedHosts: "api.example.com, *.example.org" },
    ]);
  });

  it("refuses a pattern that is not a host and an unknown credential, changing nothing", async () => {
    const ids = await seedCredentials();
    await expect(run(["allow-hosts", "a", "https://x.test/"])).rejects.toThrow(
      'allowedHosts: "https://x.test/" is not a host name (no scheme, path or user)',
    );
    await expect(run(["allow-hosts", "nope", "x.test"])).rejects.toThrow(
      "no credential named or with id 'nope'",
    );
    await expect(run(["allow-hosts", "a"])).rejects.toThrow(
      "give the credential and at least one host pattern",
    );
    expect(await readAll(ids)).toEqual([A, B]);
  });
});
