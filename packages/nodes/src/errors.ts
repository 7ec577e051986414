/**
 * The node error shape. Local until the engine exports its own; the lead reconciles the two.
 * A closed code union lets the executor decide retry/route without parsing messages.
 */
export type NodeErrorCode =
  | "config_invalid"
  | "input_invalid"
  | "expression_failed"
  | "http_failed"
  | "timeout"
  | "cancelled"
  | "policy_denied"
  | "agent_failed"
  | "sandbox_failed"
  | "not_configured"
  | "internal";

export interface NodeErrorOptions {
  nodeId?: string;
  retryable?: boolean;
  cause?: unknown;
}

/** Codes a retry can plausibly fix when the caller does not say otherwise. */
const RETRYABLE_BY_DEFAULT: ReadonlySet<NodeErrorCode> = new Set(["http_failed", "timeout", "agent_failed"]);

export class NodeError extends Error {
  override readonly name = "NodeError";
  readonly code: NodeErrorCode;
  readonly nodeId: string | undefined;
  readonly retryable: boolean;
  override readonly cause: unknown;

  constructor(code: NodeErrorCode, message: string, opts: NodeErrorOptions = {}) {
    super(message);
    this.code = code;
    this.nodeId = opts.nodeId;
    this.retryable = opts.retryable ?? RETRYABLE_BY_DEFAULT.has(code);
    this.cause = opts.cause;
  }

  toJSON(): { code: NodeErrorCode; message: string; nodeId?: string; retryable: boolean } {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.nodeId ? { nodeId: this.nodeId } : {}),
    };
  }
}

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
