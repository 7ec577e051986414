/**
 * Errors come from the engine: one NodeError class with a closed code union, so the executor's
 * `toNodeError` keeps a node's code instead of treating it as a crash.
 */
import { NodeError } from "@switchyard/engine";

export {
  NodeError,
  type NodeErrorCode,
  type NodeErrorInfo,
  type NodeErrorOptions,
  NonRetryableError,
  toNodeError,
} from "@switchyard/engine";

export function isNodeError(value: unknown): value is NodeError {
  return value instanceof NodeError;
}

/** Thrown when a node needs a ctx capability the host did not provide. */
export function notConfigured(capability: string, nodeId: string): NodeError {
  return new NodeError("not_configured", `${capability} is not available to this node`, {
    nodeId,
    retryable: false,
  });
}
