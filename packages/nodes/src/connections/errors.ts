import { NodeError } from "../errors";

/**
 * A server's refusal or an unreachable server, as the user sees it: the node, the service, and the
 * server's own words (SQLSTATE or error code appended when there is one).
 */
export function serviceError(
  nodeId: string,
  service: string,
  err: unknown,
  o: { retryable: boolean; code?: string; itemIndex?: number },
): NodeError {
  const message = (err as Error)?.message || String(err);
  return new NodeError(
    "service_failed",
    `node "${nodeId}": ${service}: ${message}${o.code ? ` (${o.code})` : ""}`,
    {
      nodeId,
      retryable: o.retryable,
      cause: err,
      ...(o.itemIndex === undefined ? {} : { itemIndex: o.itemIndex }),
    },
  );
}

/** Network errors Node reports by code: the server may come back, so a retry can help. */
export const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "EAI_AGAIN",
]);
