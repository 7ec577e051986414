import { TRPCError } from "@trpc/server";

type TRPCCode = TRPCError["code"];

const codes: Record<string, TRPCCode> = {
  invalid_input: "BAD_REQUEST",
  invalid_credentials: "UNAUTHORIZED",
  throttled: "TOO_MANY_REQUESTS",
  already_set_up: "CONFLICT",
  email_taken: "CONFLICT",
  last_owner: "BAD_REQUEST",
  not_found: "NOT_FOUND",
  setup_token_required: "FORBIDDEN",
  setup_token_invalid: "FORBIDDEN",
};

interface AuthErrorLike {
  name: "AuthError";
  code: string;
  message: string;
  field?: string;
  retryAfterMs?: number;
}

// Matched by name: the host (and its AuthError class) is loaded outside the Next.js bundle.
export function isAuthError(e: unknown): e is AuthErrorLike {
  return e instanceof Error && e.name === "AuthError" && typeof (e as { code?: unknown }).code === "string";
}

/** The tRPC error for a person's mistake reported by the auth service; anything else passes through. */
export function toTRPCError(e: unknown): unknown {
  if (!isAuthError(e)) return e;
  // A wrong *current* password in a form is a field error, not "you are signed out".
  const code = e.code === "invalid_credentials" && e.field ? "BAD_REQUEST" : (codes[e.code] ?? "BAD_REQUEST");
  return new TRPCError({ code, message: e.message, cause: e });
}

/** Field-level issues for the form that caused an AuthError. */
export function authIssues(cause: unknown): { path: string; message: string }[] | undefined {
  return isAuthError(cause) && cause.field ? [{ path: cause.field, message: cause.message }] : undefined;
}
