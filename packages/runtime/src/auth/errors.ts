import type { ZodError } from "zod";
import { type ErrorCode, HostError } from "../errors/codes";

export type AuthErrorCode =
  | "invalid_input"
  | "invalid_credentials"
  | "throttled"
  | "already_set_up"
  | "email_taken"
  | "last_owner"
  | "not_found"
  | "setup_token_required"
  | "setup_token_invalid";

/** How each auth refusal is answered at the edge (a wrong *current* password in a form is a field error). */
function edgeCode(code: AuthErrorCode, field: string | undefined): ErrorCode {
  if (code === "invalid_credentials") return field ? "invalid_request" : "unauthorized";
  const codes: Record<Exclude<AuthErrorCode, "invalid_credentials">, ErrorCode> = {
    invalid_input: "invalid_request",
    throttled: "rate_limited",
    already_set_up: "conflict",
    email_taken: "conflict",
    last_owner: "invalid_request",
    not_found: "not_found",
    setup_token_required: "forbidden",
    setup_token_invalid: "forbidden",
  };
  return codes[code];
}

/** The one error the auth service throws for a person's mistake; `code` says which, `errorCode` how to answer. */
export class AuthError extends HostError {
  override name = "AuthError";
  constructor(
    readonly code: AuthErrorCode,
    message: string,
    /** Form field the message belongs to, when there is one. */
    readonly field?: string,
    readonly retryAfterMs?: number,
  ) {
    super(edgeCode(code, field), message);
  }

  /** `field` names a bare value (a lone password); object schemas name their own fields. */
  static fromZod(e: ZodError, field?: string): AuthError {
    const issue = e.issues[0];
    const path = [field, ...(issue?.path ?? [])].filter((p) => p !== undefined).join(".");
    return new AuthError("invalid_input", issue?.message ?? "invalid input", path || undefined);
  }
}

export const invalidCredentials = () => new AuthError("invalid_credentials", "invalid e-mail or password");
