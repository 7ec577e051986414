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

const denied = (url: URL, why: string) =>
  new NodeError("policy_denied", `request to ${url.origin} refused: ${why}`, { retryable: false });

/**
 * Checks one URL against the SSRF policy and returns the single address to connect to.
 * Every resolved address must pass: DNS answers may mix public and private records.
 */
export async function vetUrl(url: URL, policy: UrlPolicy): Promise<ResolvedAddress> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw denied(url, `protocol ${url.protocol} is not allowed`);
  }
  if (url.username || url.password) throw denied(url, "credentials in the URL are not allowed");
  const host = bare(url.hostname);
  const allowed = (policy.allowHosts ?? []).some((h) => bare(h) === host);
  if (isIpLiteral(host)) {
    const why = allowed ? null : forbiddenReason(host);
    if (why) throw denied(url, `${host} is ${why}`);
    return { address: host, family: host.includes(":") ? 6 : 4 };
  }
  const nameWhy = allowed ? null : forbiddenHostName(host);
  if (nameWhy) throw denied(url, nameWhy);
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
      if (why) throw denied(url, `${host} resolves to ${a.address}, ${why}`);
    }
  }
  return first;
}
