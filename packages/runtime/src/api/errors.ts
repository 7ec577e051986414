import type { ZodError } from "zod";

/** The closed set of error codes the REST API answers with; each has one HTTP status. */
export const apiErrorStatus = {
  invalid_request: 400,
  invalid_flow: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
} as const;
export type ApiErrorCode = keyof typeof apiErrorStatus;

/** One problem with a request, named by its place: a dotted path into the body/query/params. */
export interface ApiProblem {
  path: string;
  message: string;
  /** Engine problem code (`unknown_node_type`, `cycle`, …) for flow problems. */
  code?: string;
  nodeId?: string;
  edgeId?: string;
}

/** What handlers throw for a caller's mistake; the router turns it into `{ error: { code, message, details } }`. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: { problems?: ApiProblem[] } & Record<string, unknown>,
  ) {
    super(message);
  }
  get status(): number {
    return apiErrorStatus[this.code];
  }
}

/** Every zod issue with its full path (prefixed with where it was found: body, query, params). */
export function zodProblems(e: ZodError, prefix?: string): ApiProblem[] {
  return e.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].filter((p) => p !== undefined && p !== "").join("."),
    message: i.message,
  }));
}

export function invalidRequest(problems: ApiProblem[], what = "request"): ApiError {
  const n = problems.length;
  return new ApiError(
    "invalid_request",
    `invalid ${what}: ${n} problem${n === 1 ? "" : "s"} (see details.problems)`,
    { problems },
  );
}

/**
 * Errors from the host's services become API errors. Matched by `name` so the same mapping holds for
 * errors thrown from any copy of a module.
 */
export function toApiError(e: unknown): ApiError | undefined {
  if (e instanceof ApiError) return e;
  if (!(e instanceof Error)) return undefined;
  if (e.name === "RunControlError") {
    const code = (e as Error & { code: string }).code;
    if (code === "not_found") return new ApiError("not_found", e.message);
    if (code === "conflict") return new ApiError("conflict", e.message);
    return new ApiError("invalid_request", e.message);
  }
  if (e.name === "NotFoundError") return new ApiError("not_found", e.message);
  if (e.name === "AuthError") {
    const code = (e as Error & { code: string }).code;
    if (code === "not_found") return new ApiError("not_found", e.message);
    if (code === "email_taken") return new ApiError("conflict", e.message);
    return new ApiError("invalid_request", e.message);
  }
  return undefined;
}
