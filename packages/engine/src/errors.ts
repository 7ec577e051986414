/**
 * One error class for everything a node or the executor can fail with, with a closed set of codes.
 * Anything else is normalised at the engine boundary by `toNodeError`.
 */

export const nodeErrorCodes = [
  "config_invalid",
  "input_invalid",
  "expression_failed",
  "expression_limit",
  "http_failed",
  /** A database, broker or other server refused the request or could not be reached. */
  "service_failed",
  "timeout",
  "cancelled",
  "policy_denied",
  "agent_failed",
  "sandbox_failed",
  "not_configured",
  "flow_invalid",
  "limit_exceeded",
  "internal",
] as const;

export type NodeErrorCode = (typeof nodeErrorCodes)[number];

/** Codes that describe a user's mistake or a refusal: retrying cannot fix them. */
const nonRetryableCodes: ReadonlySet<NodeErrorCode> = new Set<NodeErrorCode>([
  "config_invalid",
  "input_invalid",
  "expression_failed",
  "expression_limit",
  "policy_denied",
  "not_configured",
  "flow_invalid",
  "limit_exceeded",
  "cancelled",
]);

export interface NodeErrorOptions {
  nodeId?: string;
  retryable?: boolean;
  cause?: unknown;
  /** Config field path (e.g. `headers.authorization`) when the error is about one field. */
  field?: string;
  /** 0-based index of the input item being processed when a per-item node failed. */
  itemIndex?: number;
}

export class NodeError extends Error {
  override readonly name: string = "NodeError";
  readonly code: NodeErrorCode;
  nodeId: string | undefined;
  readonly retryable: boolean;
  field: string | undefined;
  itemIndex: number | undefined;

  constructor(code: NodeErrorCode, message: string, opts: NodeErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.nodeId = opts.nodeId;
    this.retryable = opts.retryable ?? !nonRetryableCodes.has(code);
    this.field = opts.field;
    this.itemIndex = opts.itemIndex;
  }

  /** The serialisable form stored in step records and run results. */
  toInfo(): NodeErrorInfo {
    const info: NodeErrorInfo = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.nodeId !== undefined) info.nodeId = this.nodeId;
    if (this.field !== undefined) info.field = this.field;
    if (this.itemIndex !== undefined) info.itemIndex = this.itemIndex;
    // Bugs keep their stack so they can be logged as crashes; user mistakes do not need one.
    if (this.code === "internal" && this.cause instanceof Error && this.cause.stack)
      info.stack = this.cause.stack;
    return info;
  }
}

/** A failure that retrying cannot fix (the executor skips remaining attempts). */
export class NonRetryableError extends NodeError {
  override readonly name: string = "NonRetryableError";
  constructor(code: NodeErrorCode, message: string, opts: Omit<NodeErrorOptions, "retryable"> = {}) {
    super(code, message, { ...opts, retryable: false });
  }
}

/** Plain-data error as persisted in a step record. */
export interface NodeErrorInfo {
  code: NodeErrorCode;
  message: string;
  retryable: boolean;
  nodeId?: string;
  field?: string;
  itemIndex?: number;
  stack?: string;
}

/**
 * Normalises anything thrown into a NodeError. A NodeError keeps its code (and gets the node id if it
 * had none); anything else is a bug or an unexpected failure: code `internal`, retryable, stack kept.
 */
export function toNodeError(err: unknown, nodeId?: string): NodeError {
  if (err instanceof NodeError) {
    if (err.nodeId === undefined && nodeId !== undefined) err.nodeId = nodeId;
    return err;
  }
  const message = err instanceof Error ? err.message : typeof err === "string" ? err : safeString(err);
  return new NodeError("internal", message || "unknown error", { nodeId, cause: err, retryable: true });
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
