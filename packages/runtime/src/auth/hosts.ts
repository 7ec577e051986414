import { isIP } from "node:net";
import { clientIp, type HeaderSource, header } from "./request";

/**
 * DNS rebinding: a page on `evil.example` whose name later resolves to 127.0.0.1 talks to us as its own
 * origin, so Origin checks and `Sec-Fetch-Site` pass. Only the `Host` the browser addressed shows it, so
 * browser-facing requests must name a host we answer to.
 */
export interface HostPolicy {
  baseUrl: string;
  /** Extra host names from SWITCHYARD_ALLOWED_HOSTS (lower case, no port). */
  allowedHosts: readonly string[];
  /** Behind a trusted proxy the browser's host is in X-Forwarded-Host. */
  trustProxy?: boolean;
}

const hostHeader = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `Example.com.:3000` → `example.com`, `[::1]:3000` → `[::1]`; null for anything that is not a host. */
export function hostnameOf(host: string | undefined): string | null {
  if (!host || !hostHeader.test(host)) return null;
  return host.replace(/:\d+$/, "").replace(/\.$/, "").toLowerCase();
}

const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, "$1");

/** localhost, *.localhost (browsers never ask DNS for them) and loopback addresses. */
export function isLoopbackName(hostname: string): boolean {
  if (hostname === "localhost" || hostname.endsWith(".localhost")) return true;
  return isLoopbackAddress(bare(hostname));
}

export function isLoopbackAddress(ip: string): boolean {
  const v4 = ip.replace(/^::ffff:/i, "");
  if (isIP(v4) === 4) return v4.startsWith("127.");
  return isIP(ip) === 6 && /^(0*:)*:?0*1$/.test(ip);
}

/** The host the browser addressed: a trusted proxy's X-Forwarded-Host, else `Host`. */
export function requestHost(h: HeaderSource, policy: HostPolicy): string | undefined {
  const forwarded = policy.trustProxy ? header(h, "x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || header(h, "host");
}

/**
 * The base URL's host, SWITCHYARD_ALLOWED_HOSTS, loopback names, and IP literals (as Vite allows): a page
 * addressed by an IP has that IP as its origin, so it cannot rebind. Ports are not compared: the
 * attacker picks the port as freely as we do, only the name tells the pages apart.
 */
export function isAllowedHost(host: string | undefined, policy: HostPolicy): boolean {
  const name = hostnameOf(host);
  if (!name) return false;
  if (isLoopbackName(name) || isIP(bare(name)) !== 0) return true;
  if (name === hostnameOf(new URL(policy.baseUrl).host)) return true;
  return policy.allowedHosts.includes(name);
}

/** The message of the 421 answer: names the host and the variable that would allow it. */
export function hostRefusal(host: string | undefined): string {
  const shown = host ? `'${host}'` : "no Host header";
  return `this Switchyard does not answer browser requests for ${shown} (protection against DNS rebinding); if that is its address, add the name to SWITCHYARD_ALLOWED_HOSTS or set SWITCHYARD_BASE_URL`;
}

/**
 * The client address (the socket's, or the trusted proxy's forwarded one, both in X-Forwarded-For by then)
 * and the host it addressed are loopback. Enough to choose what a page shows (a navigation carries no
 * Origin), never to grant anything: see isLocalClient.
 */
export function looksLocal(h: HeaderSource, policy: HostPolicy): boolean {
  const name = hostnameOf(requestHost(h, policy));
  return !!name && isLoopbackName(name) && isLoopbackAddress(clientIp(h));
}

/**
 * A browser on this machine: loopback address, host and Origin. All three, because a proxy on this
 * machine makes every socket look local, a rebinding page addresses a name that is not, and nginx's
 * default `proxy_pass` even rewrites Host to the loopback upstream — the Origin a browser sends on every
 * POST still names the public page (a request without one is no browser's, and gets no exemption).
 */
export function isLocalClient(h: HeaderSource, policy: HostPolicy): boolean {
  if (!looksLocal(h, policy)) return false;
  let origin: URL;
  try {
    origin = new URL(header(h, "origin") ?? "");
  } catch {
    return false;
  }
  const originName = hostnameOf(origin.host);
  return !!originName && isLoopbackName(originName);
}

/**
 * Whether a cookie-authenticated write came from our own pages: addressed to a host we answer to, and
 * `Sec-Fetch-Site: same-origin` or an `Origin` whose host is the request's (or the base URL's).
 * A missing Origin is refused: every browser sends it on POST.
 */
export function isSameOrigin(h: HeaderSource, policy: HostPolicy): boolean {
  // First: under DNS rebinding the attacker's page *is* same-origin by every other test.
  if (!isAllowedHost(requestHost(h, policy), policy)) return false;
  if (header(h, "sec-fetch-site") === "same-origin") return true;
  const origin = header(h, "origin");
  if (!origin || origin === "null") return false;
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return false;
  }
  if (originUrl.origin === new URL(policy.baseUrl).origin) return true;
  return originUrl.host === requestHost(h, policy);
}
