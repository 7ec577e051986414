import { sessionCookieName } from "./sessions";

/** Fetch `Headers` or Node's `IncomingHttpHeaders`: both edges of the app can ask. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export function header(h: HeaderSource, name: string): string | undefined {
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name) ?? undefined;
  const v = (h as Record<string, string | string[] | undefined>)[name.toLowerCase()];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** Value of one cookie from the Cookie header (no decoding: our tokens are base64url). */
export function readCookie(h: HeaderSource, name: string): string | undefined {
  const raw = header(h, "cookie");
  if (!raw) return undefined;
  for (const part of raw.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** What a request presents: an API key (Bearer or X-API-Key) wins over the session cookie. */
export function credentialsOf(h: HeaderSource): { apiKey?: string; sessionToken?: string } {
  const authz = header(h, "authorization");
  const bearer = authz?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const apiKey = bearer ?? header(h, "x-api-key")?.trim();
  if (apiKey) return { apiKey };
  const sessionToken = readCookie(h, sessionCookieName);
  return sessionToken ? { sessionToken } : {};
}

/** True when the browser talks to us over https (directly, via a TLS-terminating proxy, or per baseUrl). */
export function isSecureRequest(h: HeaderSource, baseUrl?: string): boolean {
  const proto = header(h, "x-forwarded-proto")?.split(",")[0]?.trim();
  return proto === "https" || !!baseUrl?.startsWith("https:");
}

/**
 * Client address for rate limiting: the right-most X-Forwarded-For entry (the one our nearest proxy,
 * or Next.js from the socket, wrote).
 */
export function clientIp(h: HeaderSource): string {
  const xff = header(h, "x-forwarded-for");
  const last = xff?.split(",").at(-1)?.trim();
  return last || header(h, "x-real-ip") || "unknown";
}
