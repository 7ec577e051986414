/**
 * The address policy of the SSRF guard: which IPs an outbound request may connect to.
 * Allow-list by range: an address passes only when it is ordinary global unicast; anything
 * special (loopback, private, link-local, CGNAT, multicast, reserved, …) is refused, and IPv6
 * forms that embed an IPv4 address are judged by the embedded address.
 */
import ipaddr from "ipaddr.js";

/** Public-range addresses that still reach cloud metadata / control services. */
const METADATA_V4 = new Set(["168.63.129.16"]);

/** Host names refused before any DNS lookup (they name the machine or a metadata service). */
const FORBIDDEN_NAMES = [/^localhost$/, /\.localhost$/, /^metadata\.google\.internal$/, /^metadata$/];

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parse("2000::");

function v4Reason(ip: ipaddr.IPv4): string | null {
  if (METADATA_V4.has(ip.toString())) return "a cloud metadata address";
  const range = ip.range();
  return range === "unicast" ? null : `a ${range} address`;
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = ip.range();
  const b = ip.toByteArray();
  const last4 = (offset: number) => new ipaddr.IPv4(b.slice(offset, offset + 4));
  if (range === "ipv4Mapped" || range === "rfc6145" || range === "rfc6052") return last4(12);
  if (range === "6to4") return last4(2);
  // IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks).
  if (b.slice(0, 12).every((x) => x === 0) && !(b[12] === 0 && b[13] === 0 && b[14] === 0)) return last4(12);
  return null;
}

function v6Reason(ip: ipaddr.IPv6): string | null {
  const v4 = embeddedV4(ip);
  if (v4) {
    const inner = v4Reason(v4);
    return inner ? `an IPv6 form of ${inner} (${v4.toString()})` : null;
  }
  const range = ip.range();
  if (range !== "unicast") return `a ${range} IPv6 address`;
  if (!ip.match(GLOBAL_UNICAST_V6, 3)) return "an IPv6 address outside global unicast";
  return null;
}

/**
 * Why connecting to `address` is refused, or null when it is allowed.
 * `address` is an IP literal (brackets allowed); anything unparsable is refused.
 */
export function forbiddenReason(address: string): string | null {
  const literal = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  // Strict parse: only canonical dotted quads / IPv6 text; odd encodings never get here as IPs.
  if (ipaddr.IPv4.isValidFourPartDecimal(literal)) return v4Reason(ipaddr.IPv4.parse(literal));
  if (ipaddr.IPv6.isValid(literal)) return v6Reason(ipaddr.IPv6.parse(literal));
  return "not an IP address";
}

/** True when an outbound request must not connect to this IP address. */
export function isForbiddenAddress(address: string): boolean {
  return forbiddenReason(address) !== null;
}

/** Why a host name is refused before resolving it, or null. */
export function forbiddenHostName(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return FORBIDDEN_NAMES.some((re) => re.test(name)) ? `the host name "${name}" is reserved` : null;
}

/** True when the URL host is an IP literal (after WHATWG URL normalisation). */
export function isIpLiteral(hostname: string): boolean {
  const literal = hostname.replace(/^\[|\]$/g, "");
  return ipaddr.IPv4.isValidFourPartDecimal(literal) || ipaddr.IPv6.isValid(literal);
}
