import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Parameters of new hashes: OWASP's scrypt minimum (N=2^17, r=8, p=1; 128 MiB per hash, maxmem leaves
 * headroom so Node does not refuse it). Older, cheaper hashes still verify and are re-hashed at sign-in.
 */
export const scryptParams = { N: 2 ** 17, r: 8, p: 1, keyLen: 32, saltLen: 16 };
export type ScryptParams = typeof scryptParams;

// Upper bounds when reading a stored hash: a tampered row must not make verify allocate gigabytes.
const limits = { maxLogN: 20, maxR: 32, maxP: 16 };

function derive(password: string, salt: Buffer, keyLen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, keyLen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

const memFor = (N: number, r: number) => 256 * N * r;

/** `scrypt$N$r$p$salt$hash` (base64): the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string, params: ScryptParams = scryptParams): Promise<string> {
  const { N, r, p, keyLen, saltLen } = params;
  const salt = randomBytes(saltLen);
  const key = await derive(password, salt, keyLen, { N, r, p, maxmem: memFor(N, r) });
  return ["scrypt", N, r, p, salt.toString("base64"), key.toString("base64")].join("$");
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const validN = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0 && N <= 2 ** limits.maxLogN;
  if (
    !validN ||
    !Number.isInteger(r) ||
    r < 1 ||
    r > limits.maxR ||
    !Number.isInteger(p) ||
    p < 1 ||
    p > limits.maxP
  )
    return null;
  const salt = Buffer.from(parts[4]!, "base64");
  const key = Buffer.from(parts[5]!, "base64");
  if (salt.length < 8 || key.length < 16) return null;
  return { N, r, p, salt, key };
}

/** Constant-time comparison of the derived key; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parse(stored);
  if (!h) return false;
  const key = await derive(password, h.salt, h.key.length, {
    N: h.N,
    r: h.r,
    p: h.p,
    maxmem: memFor(h.N, h.r),
  });
  return timingSafeEqual(key, h.key);
}

/** True when the stored hash uses weaker parameters than today's, so sign-in can re-hash it. */
export function needsRehash(stored: string, params: ScryptParams = scryptParams): boolean {
  const h = parse(stored);
  return !h || h.N < params.N || h.r < params.r || h.p < params.p;
}
