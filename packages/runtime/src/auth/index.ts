import type { HeaderSource } from "./request";
import type { AuthService, RequestAuth } from "./service";

export { audit, listAudit } from "./audit";
export type { AuditEntry, AuditQuery, AuthAuditAction } from "./audit";
export { AuthError } from "./errors";
export type { AuthErrorCode } from "./errors";
export { hashPassword, needsRehash, scryptParams, verifyPassword } from "./password";
export {
  type HostPolicy,
  hostRefusal,
  isAllowedHost,
  isLocalClient,
  isSameOrigin,
  requestHost,
} from "./hosts";
export { clientIp, credentialsOf, isSecureRequest, readCookie } from "./request";
export type { SetupAccess } from "./setup-token";
export type { HeaderSource } from "./request";
export {
  apiKeyInputSchema,
  emailSchema,
  minPasswordLength,
  newUserSchema,
  passwordSchema,
  roleSchema,
  roles,
  scopeSchema,
  scopes,
} from "./schemas";
export type { ApiKeyInput, ApiKeyView, NewUser, Role, Scope, UserView } from "./schemas";
export { createAuthService } from "./service";
export type { AuthService, AuthServiceOptions, RequestAuth } from "./service";
export { clearSessionCookie, sessionCookie, sessionCookieName, sessionTtlMs } from "./sessions";
export { defaultRules } from "./throttle";
export type { ThrottleRule } from "./throttle";

/**
 * Who sent a request (API key in `Authorization: Bearer` / `X-API-Key`, else the `sy_session` cookie),
 * for HTTP edges outside tRPC such as the REST API. Null when it carries no valid credential.
 */
export function authenticateRequest(
  host: { auth: AuthService },
  headers: HeaderSource,
): Promise<RequestAuth | null> {
  return host.auth.authenticateRequest(headers);
}
