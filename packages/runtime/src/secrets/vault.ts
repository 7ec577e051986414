import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type CredentialType, credentialTypes, parseAllowedHosts } from "@switchyard/contracts/credentials";
import { newId, type PrismaClient } from "@switchyard/db";
import type { SecretsReader } from "@switchyard/engine";
import type { z } from "zod";
import { HostError } from "../errors/codes";

/** A credential that cannot be stored or read as asked: answered as the caller's mistake. */
export class CredentialError extends HostError {
  override name = "CredentialError";
  constructor(message: string) {
    super("invalid_request", message);
  }
}

/** Loads the key from config, or creates a random one in a 0600 key file beside (not inside) the database. */
export function loadOrCreateKey(dataDir: string, fromEnv?: string): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, "base64");
  const file = path.join(dataDir, "secret.key");
  if (existsSync(file)) return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  const key = randomBytes(32);
  writeFileSync(file, key.toString("base64"), { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return key;
}

const describeIssues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");

const keyId = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 12);

/** AES-256-GCM vault over the Credential table. The row id is bound as AAD so ciphertexts cannot be swapped between rows. */
export function createVault(prisma: PrismaClient, key: Buffer) {
  if (key.length !== 32) throw new CredentialError("encryption key must be 32 bytes");
  const kid = keyId(key);

  const seal = (id: string, data: Record<string, string>, k = key) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", k, iv);
    cipher.setAAD(Buffer.from(id));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(data), "utf8"), cipher.final()]);
    return {
      ciphertext: ciphertext.toString("base64"),
      iv: iv.toString("base64"),
      tag: cipher.getAuthTag().toString("base64"),
      keyId: keyId(k),
    };
  };
  const open = (row: { id: string; ciphertext: string; iv: string; tag: string }, k = key) => {
    const decipher = createDecipheriv("aes-256-gcm", k, Buffer.from(row.iv, "base64"));
    decipher.setAAD(Buffer.from(row.id));
    decipher.setAuthTag(Buffer.from(row.tag, "base64"));
    const text = Buffer.concat([
      decipher.update(Buffer.from(row.ciphertext, "base64")),
      decipher.final(),
    ]).toString("utf8");
    return JSON.parse(text) as Record<string, string>;
  };

  const vault = {
    async create(input: { name: string; type: CredentialType; data: Record<string, string> }) {
      const parsed = credentialTypes[input.type].safeParse(input.data);
      if (!parsed.success) throw new CredentialError(describeIssues(parsed.error));
      const data = parsed.data as Record<string, string>;
      const id = newId();
      await prisma.credential.create({ data: { id, name: input.name, type: input.type, ...seal(id, data) } });
      return { id };
    },
    /** Public view: which fields are set, never their values. */
    async list() {
      const rows = await prisma.credential.findMany({ orderBy: { name: "asc" } });
      return rows.map((r) => {
        const data = open(r);
        // Hosts are not secret: shown so a person can see (and fix) where a credential may go.
        const hosts = "allowedHosts" in data ? parseAllowedHosts(data.allowedHosts) : null;
        return {
          id: r.id,
          name: r.name,
          type: r.type,
          fields: Object.keys(data),
          allowedHosts: hosts,
          updatedAt: r.updatedAt,
        };
      });
    },
    /** Sets where a stored credential may be sent, keeping its secret values (the way to fix an older credential). */
    async setAllowedHosts(id: string, hosts: string) {
      const row = await prisma.credential.findUnique({ where: { id } });
      if (!row) throw new CredentialError(`credential ${id} not found`);
      const type = row.type as CredentialType;
      const schema = credentialTypes[type];
      if (!schema || !("allowedHosts" in schema.shape))
        throw new CredentialError(
          `a ${row.type} credential is only checked inbound and has no allowed hosts`,
        );
      const parsed = schema.safeParse({ ...open(row), allowedHosts: hosts });
      if (!parsed.success) throw new CredentialError(describeIssues(parsed.error));
      await prisma.credential.update({
        where: { id },
        data: seal(id, parsed.data as Record<string, string>),
      });
      return { id, allowedHosts: parseAllowedHosts(hosts) };
    },
    async delete(id: string) {
      await prisma.credential.delete({ where: { id } });
    },
    /** Re-encrypts every credential under a new key in one transaction. */
    async rotate(newKey: Buffer) {
      const rows = await prisma.credential.findMany();
      await prisma.$transaction(
        rows.map((r) => prisma.credential.update({ where: { id: r.id }, data: seal(r.id, open(r), newKey) })),
      );
      return rows.length;
    },
    reader: {
      async get(credentialId: string) {
        const row = await prisma.credential.findUnique({ where: { id: credentialId } });
        if (!row) throw new CredentialError(`credential ${credentialId} not found`);
        if (row.keyId !== kid)
          throw new CredentialError(
            `credential ${credentialId} was encrypted with another key (${row.keyId})`,
          );
        return { type: row.type, data: open(row) };
      },
    } satisfies SecretsReader,
  };
  return vault;
}

export type Vault = ReturnType<typeof createVault>;
