import { NodeError } from "../errors";
import { forbiddenHostName, forbiddenReason, isIpLiteral } from "./ssrf";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface UrlPolicy {
  /** Exact host names the guard lets through (loopback test servers, internal APIs). */
  allowHosts?: string[];
  lookup: (hostname: string) => Promise<ResolvedAddress[]>;
}

const bare = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, "");

const denied = (target: string, why: string) =>
  new NodeError("policy_denied", `request to ${target} refused: ${why}`, { retryable: false });

/**
 * Checks one URL against the SSRF policy and returns the single address to connect to.
 * Every resolved address must pass: DNS answers may mix public and private records.
 */
export async function vetUrl(url: URL, policy: UrlPolicy): Promise<ResolvedAddress> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw denied(url.origin, `protocol ${url.protocol} is not allowed`);
  }
  if (url.username || url.password) throw denied(url.origin, "credentials in the URL are not allowed");
  return vetHost(url.hostname, policy, url.origin);
}

/** The same check for a bare host name or IP (SMTP); `target` names it in the error. */
export async function vetHost(
  hostname: string,
  policy: UrlPolicy,
  target = hostname,
): Promise<ResolvedAddress> {
  const host = bare(hostname);
  const allowed = (policy.allowHosts ?? []).some((h) => bare(h) === host);
  if (isIpLiteral(host)) {
    const why = allowed ? null : forbiddenReason(host);
    if (why) throw denied(target, `${host} is ${why}`);
    return { address: host, family: host.includes(":") ? 6 : 4 };
  }
  const nameWhy = allowed ? null : forbiddenHostName(host);
  if (nameWhy) throw denied(target, nameWhy);
  let addresses: ResolvedAddress[];
  try {
    addresses = await policy.lookup(host);
  } catch (err) {
    throw new NodeError("http_failed", `could not resolve ${host}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const first = addresses[0];
  if (!first) throw new NodeError("http_failed", `could not resolve ${host}: no addresses`);
  if (!allowed) {
    for (const a of addresses) {
      const why = forbiddenReason(a.address);
      if (why) throw denied(target, `${host} resolves to ${a.address}, ${why}`);
    }
  }
  return first;
}
