import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, type DatabaseHandle, openDatabase } from "@switchyard/db";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createVault, loadOrCreateKey } from "./vault";

let dir: string;
let db: DatabaseHandle;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-vault-"));
  db = openDatabase(path.join(dir, "switchyard.db"));
  applyMigrations(db.sql);
});
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("secrets vault", () => {
  it("never stores a secret in plaintext and decrypts it for nodes", async () => {
    const vault = createVault(db.prisma, loadOrCreateKey(dir));
    const data = { token: "sk_live_TOPSECRET_123", allowedHosts: "api.stripe.com" };
    const { id } = await vault.create({ name: "Stripe", type: "httpBearer", data });
    expect(await vault.reader.get(id)).toEqual({ type: "httpBearer", data });
    db.sql.pragma("wal_checkpoint(TRUNCATE)");
    expect(readFileSync(path.join(dir, "switchyard.db")).includes("TOPSECRET")).toBe(false);
    expect(await vault.list()).toEqual([
      expect.objectContaining({
        id,
        name: "Stripe",
        fields: ["token", "allowedHosts"],
        allowedHosts: ["api.stripe.com"],
      }),
    ]);
    expect(JSON.stringify(await vault.list())).not.toContain("TOPSECRET");
  });

  it("keeps the generated key in a private file apart from the database", () => {
    const key = loadOrCreateKey(dir);
    expect(key).toHaveLength(32);
    expect(statSync(path.join(dir, "secret.key")).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKey(dir).equals(key)).toBe(true);
  });

  it("refuses a row tampered with or moved to another id", async () => {
    const vault = createVault(db.prisma, randomBytes(32));
    const a = await vault.create({
      name: "A",
      type: "httpBearer",
      data: { token: "a", allowedHosts: "a.test" },
    });
    const b = await vault.create({
      name: "B",
      type: "httpBearer",
      data: { token: "b", allowedHosts: "b.test" },
    });
    const rowA = await db.prisma.credential.findUniqueOrThrow({ where: { id: a.id } });
    await db.prisma.credential.update({
      where: { id: b.id },
      data: { ciphertext: rowA.ciphertext, iv: rowA.iv, tag: rowA.tag },
    });
    await expect(vault.reader.get(b.id)).rejects.toThrow(/Unsupported state or unable to authenticate data/);
  });

  it("re-encrypts everything on key rotation", async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const v1 = createVault(db.prisma, oldKey);
    const { id } = await v1.create({ name: "S", type: "webhookSecret", data: { secret: "s3cret" } });
    expect(await v1.rotate(newKey)).toBe(1);
    await expect(v1.reader.get(id)).rejects.toThrow(/was encrypted with another key/);
    expect((await createVault(db.prisma, newKey).reader.get(id)).data).toEqual({ secret: "s3cret" });
  });

  it("rejects a credential missing a required field and stores nothing", async () => {
    const vault = createVault(db.prisma, randomBytes(32));
    await expect(vault.create({ name: "x", type: "httpBasic", data: { password: "p" } })).rejects.toThrow(
      /user/,
    );
    expect(await db.prisma.credential.count()).toBe(0);
  });

  it("refuses an outbound credential without allowed hosts, or with a pattern that is not a host", async () => {
    const vault = createVault(db.prisma, randomBytes(32));
    await expect(vault.create({ name: "x", type: "httpBearer", data: { token: "t" } })).rejects.toThrow(
      /allowedHosts/,
    );
    await expect(
      vault.create({ name: "x", type: "llmProvider", data: { apiKey: "k", allowedHosts: " , " } }),
    ).rejects.toThrow("list the hosts this credential may be sent to, e.g. api.example.com or *.example.com");
    await expect(
      vault.create({
        name: "x",
        type: "httpHeader",
        data: { name: "x-api-key", value: "v", allowedHosts: "https://api.example.com/" },
      }),
    ).rejects.toThrow('"https://api.example.com/" is not a host name (no scheme, path or user)');
    expect(await db.prisma.credential.count()).toBe(0);
  });

  it("refuses an SMTP credential whose own host is outside its allowed hosts", async () => {
    const vault = createVault(db.prisma, randomBytes(32));
    const smtp = {
      host: "smtp.example.com",
      port: "587",
      from: "a@example.com",
      allowedHosts: "mail.example.org",
    };
    await expect(vault.create({ name: "m", type: "smtp", data: smtp })).rejects.toThrow(
      "the SMTP host smtp.example.com is not among the allowed hosts",
    );
    await vault.create({ name: "m", type: "smtp", data: { ...smtp, allowedHosts: "*.example.com" } });
    expect(await db.prisma.credential.count()).toBe(1);
  });

  it("edits the allowed hosts of a stored credential, keeping its secret, and lists them", async () => {
    const vault = createVault(db.prisma, randomBytes(32));
    const made = await vault.create({ name: "W", type: "webhookSecret", data: { secret: "s" } });
    await expect(vault.setAllowedHosts(made.id, "api.example.com")).rejects.toThrow(
      "a webhookSecret credential is only checked inbound and has no allowed hosts",
    );
    const bearer = await vault.create({
      name: "B",
      type: "httpBearer",
      data: { token: "t0k", allowedHosts: "a.example.com" },
    });
    await vault.setAllowedHosts(bearer.id, "a.example.com, *.example.org");
    expect((await vault.reader.get(bearer.id)).data).toEqual({
      token: "t0k",
      allowedHosts: "a.example.com, *.example.org",
    });
    await expect(vault.setAllowedHosts(bearer.id, "")).rejects.toThrow(/list the hosts/);
    expect((await vault.list()).find((c) => c.id === bearer.id)?.allowedHosts).toEqual([
      "a.example.com",
      "*.example.org",
    ]);
  });

  it("shows a credential stored before hosts were required as having none, until allowed hosts are set", async () => {
    const key = randomBytes(32);
    const vault = createVault(db.prisma, key);
    // A row as the vault wrote it before #18: AES-256-GCM, row id as AAD, no allowedHosts field.
    const id = "legacy-1";
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(Buffer.from(id));
    const ciphertext = Buffer.concat([
      cipher.update(JSON.stringify({ token: "old" }), "utf8"),
      cipher.final(),
    ]);
    const keyId = createHash("sha256").update(key).digest("hex").slice(0, 12);
    await db.prisma.credential.create({
      data: {
        id,
        name: "Old",
        type: "httpBearer",
        ciphertext: ciphertext.toString("base64"),
        iv: iv.toString("base64"),
        tag: cipher.getAuthTag().toString("base64"),
        keyId,
      },
    });
    expect((await vault.list())[0]).toMatchObject({ id, fields: ["token"], allowedHosts: null });
    await vault.setAllowedHosts(id, "api.example.com");
    expect(await vault.reader.get(id)).toEqual({
      type: "httpBearer",
      data: { token: "old", allowedHosts: "api.example.com" },
    });
  });
});
