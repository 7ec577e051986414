import { createHash, randomBytes } from "node:crypto";

/** Hex SHA-256: what the database keeps instead of session tokens and API keys. */
export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** 32 random bytes for a session cookie. */
export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

const apiKeyPattern = /^sy_([0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;

/** `sy_<prefix>_<secret>`: the prefix identifies the key in lists; only the hash of the whole key is stored. */
export function newApiKey(): { key: string; prefix: string } {
  const prefix = randomBytes(4).toString("hex");
  return { key: `sy_${prefix}_${randomBytes(32).toString("base64url")}`, prefix };
}

export function isApiKeyFormat(value: string): boolean {
  return apiKeyPattern.test(value);
}
