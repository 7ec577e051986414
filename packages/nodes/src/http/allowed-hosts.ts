/**
 * Credentials bound to hosts: an HTTP, SMTP or LLM credential carries the host patterns it may be
 * sent to (`allowedHosts`; the grammar is @switchyard/contracts' `credentials`), and every place that
 * sends one checks the target host here first.
 */
import { hostAllowed, normaliseHost, parseAllowedHosts } from "@switchyard/contracts/credentials";
import { NodeError } from "../errors";

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
      `credential "${credentialId}" may not be sent to ${normaliseHost(host)}: its allowed hosts are ${patterns.join(", ")}`,
      { nodeId, retryable: false },
    );
  }
}
