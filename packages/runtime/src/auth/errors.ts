import type { ZodError } from "zod";

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

/**
 * The one error the auth service throws for a person's mistake. Callers in other bundles (Next.js)
 * match it by `name` and `code`, not `instanceof`, because the host is loaded outside their module graph.
 */
export class AuthError extends Error {
  override name = "AuthError";
  constructor(
    readonly code: AuthErrorCode,
    message: string,
    /** Form field the message belongs to, when there is one. */
    readonly field?: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  /** `field` names a bare value (a lone password); object schemas name their own fields. */
  static fromZod(e: ZodError, field?: string): AuthError {
    const issue = e.issues[0];
    const path = [field, ...(issue?.path ?? [])].filter((p) => p !== undefined).join(".");
    return new AuthError("invalid_input", issue?.message ?? "invalid input", path || undefined);
  }
}

export const invalidCredentials = () => new AuthError("invalid_credentials", "invalid e-mail or password");
