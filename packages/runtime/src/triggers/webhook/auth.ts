import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** The auth modes of trigger.webhook, with secrets already resolved from the vault. */
export type ResolvedWebhookAuth =
  | { type: "none" }
  | { type: "header"; name: string; secret: string }
  | { type: "basic"; user: string; password: string }
  | {
      type: "hmac";
      preset: "github" | "stripe" | "custom";
      header: string;
      secret: string;
      toleranceSec?: number;
      /** Custom HMAC only: the header with a Unix-seconds timestamp, signed as `<timestamp>.<body>`. */
      timestampHeader?: string;
    };

/** Seconds a signed timestamp may differ from now when the flow names no tolerance. */
const DEFAULT_TOLERANCE_SEC = 300;

/** Constant-time string comparison that also hides the length of the expected value. */
export function safeEqual(given: string, expected: string): boolean {
  // Compare fixed-size digests so neither content nor length leaks through timing.
  const a = createHmac("sha256", "switchyard-compare").update(given).digest();
  const b = createHmac("sha256", "switchyard-compare").update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** Auth that needs no body, checked before reading it so unauthenticated callers can't make us buffer. */
export function checkAuthBeforeBody(auth: ResolvedWebhookAuth, headers: IncomingHttpHeaders): boolean {
  switch (auth.type) {
    case "none":
    case "hmac":
      return true;
    case "header":
      // An empty expected value never matches (it would admit a request that sends nothing).
      return auth.secret !== "" && safeEqual(header(headers, auth.name) ?? "", auth.secret);
    case "basic": {
      if (auth.user === "" || auth.password === "") return false;
      const h = header(headers, "authorization") ?? "";
      const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(h);
      const decoded = m ? Buffer.from(m[1]!, "base64").toString("utf8") : "";
      const sep = decoded.indexOf(":");
      const okUser = safeEqual(sep >= 0 ? decoded.slice(0, sep) : "", auth.user);
      const okPass = safeEqual(sep >= 0 ? decoded.slice(sep + 1) : "", auth.password);
      return okUser && okPass;
    }
  }
}

/**
 * HMAC-SHA256 over the raw body (GitHub `sha256=<hex>`, Stripe `t=<ts>,v1=<hex>` over `<ts>.<body>`, or
 * custom hex, over `<ts>.<body>` when a timestamp header is named). Signed timestamps must be within
 * `toleranceSec` of now.
 */
export function checkSignature(
  auth: ResolvedWebhookAuth,
  headers: IncomingHttpHeaders,
  raw: Buffer,
  nowMs: number,
): boolean {
  if (auth.type !== "hmac") return true;
  if (auth.secret === "") return false;
  const value = header(headers, auth.header) ?? "";
  const tolerance = auth.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  const fresh = (ts: string | undefined): ts is string =>
    !!ts && /^\d{1,12}$/.test(ts) && Math.abs(nowMs / 1000 - Number(ts)) <= tolerance;
  const mac = (data: Buffer | string) => createHmac("sha256", auth.secret).update(data).digest("hex");
  if (auth.preset === "stripe") {
    const parts = new Map<string, string[]>();
    for (const kv of value.split(",")) {
      const i = kv.indexOf("=");
      if (i > 0)
        parts.set(kv.slice(0, i).trim(), [
          ...(parts.get(kv.slice(0, i).trim()) ?? []),
          kv.slice(i + 1).trim(),
        ]);
    }
    const ts = parts.get("t")?.[0];
    if (!fresh(ts)) return false;
    const expected = mac(Buffer.concat([Buffer.from(`${ts}.`), raw]));
    // Every candidate is compared, so timing doesn't reveal which one matched.
    let ok = false;
    for (const sig of parts.get("v1") ?? []) ok = safeEqual(sig, expected) || ok;
    return ok;
  }
  const given = value.replace(/^sha256=/, "").toLowerCase();
  if (auth.preset === "custom" && auth.timestampHeader) {
    // The timestamp is inside the signed text, so a replay cannot refresh it.
    const ts = header(headers, auth.timestampHeader);
    if (!fresh(ts)) return false;
    return safeEqual(given, mac(Buffer.concat([Buffer.from(`${ts}.`), raw])));
  }
  // GitHub's protocol signs the body only: no timestamp, so no replay window (toleranceSec is refused at save).
  return safeEqual(given, mac(raw));
}
