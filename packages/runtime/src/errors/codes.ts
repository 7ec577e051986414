import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

/**
 * The closed list of error codes the host answers with at its edges — REST, tRPC, webhooks and the
 * server's own refusals — each with its one HTTP status and tRPC code. Nothing else maps errors to
 * statuses: add a code here, never a status at a call site.
 */
export const errorCodes = {
  invalid_request: { status: 400, trpc: "BAD_REQUEST" },
  /** A well-formed flow the engine finds problems in. */
  invalid_flow: { status: 400, trpc: "BAD_REQUEST" },
  /** A request body that stopped before its declared end (webhooks). */
  incomplete_body: { status: 400, trpc: "BAD_REQUEST" },
  malformed_json: { status: 400, trpc: "PARSE_ERROR" },
  /** JSON nested deeper than the engine's limit. */
  body_too_deep: { status: 400, trpc: "BAD_REQUEST" },
  /** A path segment that is not valid percent-encoding (webhook path parameters). */
  malformed_path: { status: 400, trpc: "BAD_REQUEST" },
  unauthorized: { status: 401, trpc: "UNAUTHORIZED" },
  forbidden: { status: 403, trpc: "FORBIDDEN" },
  not_found: { status: 404, trpc: "NOT_FOUND" },
  method_not_allowed: { status: 405, trpc: "METHOD_NOT_SUPPORTED" },
  conflict: { status: 409, trpc: "CONFLICT" },
  length_required: { status: 411, trpc: "BAD_REQUEST" },
  payload_too_large: { status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  unsupported_media_type: { status: 415, trpc: "UNSUPPORTED_MEDIA_TYPE" },
  /** DNS rebinding: a browser request addressed to a host name we do not answer to. */
  host_not_allowed: { status: 421, trpc: "FORBIDDEN" },
  /** Webhook rate limits and sign-in throttling. */
  rate_limited: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  internal: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
  /** A flow's answer the host cannot send (e.g. a status outside 200–599). */
  invalid_response: { status: 502, trpc: "INTERNAL_SERVER_ERROR" },
  unavailable: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
  timeout: { status: 504, trpc: "TIMEOUT" },
} as const satisfies Record<string, { status: number; trpc: TRPC_ERROR_CODE_KEY }>;

export type ErrorCode = keyof typeof errorCodes;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(errorCodes, value);
}

export function statusOf(code: ErrorCode): number {
  return errorCodes[code].status;
}

export function trpcCodeOf(code: ErrorCode): TRPC_ERROR_CODE_KEY {
  return errorCodes[code].trpc;
}

/**
 * The code of a tRPC error raised without a host error behind it (input validation, a procedure's
 * own TRPCError): the first entry of the list with that tRPC code, so BAD_REQUEST → invalid_request.
 */
export function codeOfTrpc(trpc: TRPC_ERROR_CODE_KEY): ErrorCode {
  for (const [code, entry] of Object.entries(errorCodes)) if (entry.trpc === trpc) return code as ErrorCode;
  return "internal";
}

/** One problem with a request or a flow, named by its place: a dotted path (`body.definition.nodes.2.id`). */
export interface Problem {
  path: string;
  message: string;
  /** Engine problem code (`unknown_node_type`, `cycle`, …) for flow problems. */
  code?: string;
  nodeId?: string;
  edgeId?: string;
}

export interface ErrorDetails extends Record<string, unknown> {
  problems?: Problem[];
}

/**
 * An error a person's request caused, carrying its edge code: every door (REST, tRPC, CLI) answers it
 * the same way without knowing which module threw it.
 */
export class HostError extends Error {
  override name = "HostError";
  constructor(
    readonly errorCode: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
  }
}

/**
 * The edge code an error carries: HostError and its subclasses, and errors of packages below the runtime
 * (the db's NotFoundError) that declare `errorCode` without depending on this module.
 */
export function errorCodeOf(e: unknown): ErrorCode | undefined {
  const code = (e as { errorCode?: unknown } | null)?.errorCode;
  return e instanceof Error && isErrorCode(code) ? code : undefined;
}

export function invalidRequest(problems: Problem[], what = "request"): HostError {
  const n = problems.length;
  return new HostError(
    "invalid_request",
    `invalid ${what}: ${n} problem${n === 1 ? "" : "s"} (see details.problems)`,
    {
      problems,
    },
  );
}
