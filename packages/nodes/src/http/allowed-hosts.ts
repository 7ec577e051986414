/**
 * Credentials bound to hosts: an HTTP, SMTP or LLM credential carries the host patterns it may be
 * sent to (`allowedHosts`, a comma-separated string like every credential field), and every place
 * that sends one checks the target host here first. Patterns: `api.example.com` (that host only) or
 * `*.example.com` (any subdomain, not the apex); IP literals match exactly. No port, no scheme.
 */
import { NodeError } from "../errors";
import { isIpLiteral } from "./ssrf";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

const normalise = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");

/** Splits the stored field into patterns (commas, spaces or new lines between them). */
export function parseAllowedHosts(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(/[\s,]+/)
    .map(normalise)
    .filter((p) => p.length > 0);
}

/** Why a pattern is unusable, or null. */
export function hostPatternProblem(pattern: string): string | null {
  const p = normalise(pattern);
  if (isIpLiteral(p)) return null;
  if (/[/@?#]/.test(p) || p.includes("://"))
    return `"${pattern}" is not a host name (no scheme, path or user)`;
  if (/:\d+$/.test(p)) return `"${pattern}" has a port; give the host only`;
  const body = p.startsWith("*.") ? p.slice(2) : p;
  if (body.includes("*")) return `"${pattern}" may use * only as its first label, as in *.example.com`;
  const labels = body.split(".");
  if (p.startsWith("*.") && labels.length < 2)
    return `"${pattern}" is too broad; name a domain, as in *.example.com`;
  if (!labels.every((l) => LABEL.test(l))) return `"${pattern}" is not a valid host name`;
  return null;
}

/** True when `host` (a URL hostname or SMTP host) matches one of the patterns. */
export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  const h = normalise(host);
  return patterns.some((raw) => {
    const p = normalise(raw);
    return p.startsWith("*.") ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p;
  });
}

/**
 * Throws `policy_denied` unless the credential may be sent to `host`. A credential stored before
 * hosts were required has none and is refused (fail closed) with how to fix it.
 */
export function assertCredentialHost(
  credentialId: string,
  data: Record<string, string>,
  host: string,
  nodeId?: string,
): void {
  const patterns = parseAllowedHosts(data.allowedHosts);
  if (patterns.length === 0) {
    throw new NodeError(
      "policy_denied",
      `credential "${credentialId}" has no allowed hosts, so it is sent nowhere: edit the credential (Settings › Credentials) and add the hosts it may be sent to`,
      { nodeId, retryable: false },
    );
  }
  if (!hostAllowed(host, patterns)) {
    throw new NodeError(
      "policy_denied",
      `credential "${credentialId}" may not be sent to ${normalise(host)}: its allowed hosts are ${patterns.join(", ")}`,
      { nodeId, retryable: false },
    );
  }
}
