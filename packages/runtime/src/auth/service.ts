import type { StorageHandle } from "@switchyard/db";
import type { ZodType } from "zod";
import type { Logger } from "../logger";
import { createApiKeyStore } from "./api-keys";
import { type AuditQuery, audit, listAudit } from "./audit";
import { AuthError, invalidCredentials } from "./errors";
import {
  hashPassword as hashWith,
  needsRehash,
  type ScryptParams,
  scryptParams,
  verifyPassword,
} from "./password";
import { hostRefusal, isAllowedHost, isLocalClient, isSameOrigin, looksLocal, requestHost } from "./hosts";
import { clientIp, credentialsOf, type HeaderSource, isSecureRequest } from "./request";
import {
  type ApiKeyInput,
  apiKeyInputSchema,
  emailSchema,
  type NewUser,
  newUserSchema,
  passwordSchema,
  type Role,
  roleSchema,
  type Scope,
  scopes as allScopes,
  type UserView,
} from "./schemas";
import { createSetupToken, type SetupAccess } from "./setup-token";
import { clearSessionCookie, createSessionStore, sessionCookie, sessionCookieName } from "./sessions";
import { createThrottle, defaultRules, type ThrottleRule } from "./throttle";
import { createUserStore } from "./users";

export interface AuthServiceOptions {
  db: StorageHandle;
  log: Logger;
  now?: () => number;
  rules?: { email?: ThrottleRule; ip?: ThrottleRule };
  /** Cheaper scrypt cost for tests only; the host always uses the default parameters. */
  scrypt?: ScryptParams;
}

/** Who made a request, and with what rights. Sessions carry every scope; API keys carry theirs. */
export interface RequestAuth {
  user: UserView;
  /** `local`: the CLI on the data dir itself (whoever can open it controls everything in it). */
  via: "session" | "apikey" | "local";
  scopes: Scope[];
  /** The cookie token, for sign-out and "keep this session" on password change. */
  sessionToken?: string;
  apiKeyId?: string;
}

function parse<T>(schema: ZodType<T>, value: unknown, field?: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw AuthError.fromZod(r.error, field);
  return r.data;
}

/** Accounts, sessions, API keys and sign-in throttling over the host's database. */
export function createAuthService(opts: AuthServiceOptions) {
  const now = opts.now ?? Date.now;
  const hashParams = opts.scrypt ?? scryptParams;
  const hashPassword = (password: string) => hashWith(password, hashParams);
  const host = { db: opts.db };
  const users = createUserStore(opts.db);
  const sessions = createSessionStore(opts.db, now);
  const apiKeys = createApiKeyStore(opts.db, now);
  const byEmail = createThrottle(opts.rules?.email ?? defaultRules.email, now);
  const byIp = createThrottle(opts.rules?.ip ?? defaultRules.ip, now);
  // Unknown e-mail addresses are verified against this, so they cost as much time as a wrong password.
  // Made on the first sign-in (known user or not, so that one is equally slow), not at every host start.
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= hashPassword("switchyard-timing-equaliser"));
  const setupToken = createSetupToken();

  const createUser = async (actorId: string | null, input: NewUser, via: string): Promise<UserView> => {
    const u = parse(newUserSchema, input);
    const created = await users.create({
      email: u.email,
      name: u.name,
      role: u.role,
      passwordHash: await hashPassword(u.password),
    });
    await audit(host, actorId ?? created.id, "user.created", created.id, {
      email: created.email,
      role: created.role,
      via,
    });
    return created;
  };

  return {
    hasUsers: users.hasUsers,
    listUsers: users.list,
    getUser: users.get,

    /** The start banner's setup token while no user exists; null once the owner does. */
    async pendingSetupToken(): Promise<string | null> {
      return (await users.hasUsers()) ? null : setupToken.token;
    },

    /** Null when a setup request with this access may go ahead (for the setup page's own message). */
    setupAccessProblem: (access: SetupAccess) => setupToken.problem(access),

    /**
     * First start only: creates the owner while no user exists, and signs them in. A browser elsewhere
     * than on this machine must present the setup token.
     */
    async setup(input: { email: string; password: string; name?: string }, access: SetupAccess) {
      if (await users.hasUsers())
        throw new AuthError("already_set_up", "Switchyard is already set up; sign in instead");
      const refused = setupToken.problem(access);
      if (refused) throw refused;
      const u = parse(newUserSchema, { ...input, role: "owner" });
      const id = await users.createFirstOwner({
        email: u.email,
        name: u.name,
        passwordHash: await hashPassword(u.password),
      });
      if (!id) throw new AuthError("already_set_up", "Switchyard is already set up; sign in instead");
      await audit(host, id, "user.created", id, { email: u.email, role: "owner", via: "setup" });
      const user = (await users.get(id))!;
      return { user, ...(await sessions.create(id)) };
    },

    /** Creates a user (CLI and owners). The CLI passes actorId null. */
    createUser: (actorId: string | null, input: NewUser, via = "ui") => createUser(actorId, input, via),

    /**
     * Same message and (about) the same time for an unknown e-mail and a wrong password; throttled per
     * e-mail and per IP, and a throttled attempt never reaches the password check.
     */
    async signIn(input: { email: string; password: string; ip: string }) {
      const email = typeof input.email === "string" ? input.email.trim().toLowerCase().slice(0, 320) : "";
      const password = typeof input.password === "string" ? input.password.slice(0, 1024) : "";
      const checks = [byEmail.attempt(`email:${email}`), byIp.attempt(`ip:${input.ip}`)];
      for (const c of checks) {
        if (c.allowed) continue;
        const seconds = Math.ceil(c.retryAfterMs / 1000);
        throw new AuthError(
          "throttled",
          `too many sign-in attempts; try again in ${seconds} s`,
          undefined,
          c.retryAfterMs,
        );
      }
      const fallback = await dummyHash();
      const row = await users.byEmail(email);
      const ok = await verifyPassword(password, row?.passwordHash ?? fallback);
      if (!row || !ok) {
        await audit(host, row?.id ?? null, "auth.signin.failed", row?.id ?? email, {
          email,
          ip: input.ip,
          reason: row ? "wrong_password" : "unknown_user",
        });
        // Refused attempts are not written one by one (that would let a flood fill the table); the lockout is.
        if (checks.some((c) => c.allowed && c.locks)) {
          opts.log.warn({ email, ip: input.ip }, "sign-in lockout started after repeated failures");
          await audit(host, row?.id ?? null, "auth.signin.throttled", row?.id ?? email, {
            email,
            ip: input.ip,
          });
        }
        throw invalidCredentials();
      }
      byEmail.succeeded(`email:${email}`);
      byIp.succeeded(`ip:${input.ip}`);
      if (needsRehash(row.passwordHash, hashParams))
        await users.setPasswordHash(row.id, await hashPassword(password));
      await audit(host, row.id, "auth.signin.succeeded", row.id, { ip: input.ip });
      // Expired rows are otherwise only removed when their cookie comes back; sign-in is a cheap moment to sweep.
      await sessions.purgeExpired();
      const user = (await users.get(row.id))!;
      return { user, ...(await sessions.create(row.id)) };
    },

    async signOut(token: string, actorId?: string): Promise<void> {
      if (await sessions.delete(token)) await audit(host, actorId ?? null, "auth.signout", actorId ?? null);
    },

    /** Verifies the current password, stores the new one and ends every other session of the user. */
    async changePassword(userId: string, input: { current: string; next: string }, keepToken?: string) {
      const next = parse(passwordSchema, input.next, "next");
      const stored = await users.passwordHash(userId);
      if (!stored || !(await verifyPassword(String(input.current ?? ""), stored))) {
        throw new AuthError("invalid_credentials", "current password is wrong", "current");
      }
      await users.setPasswordHash(userId, await hashPassword(next));
      const ended = await sessions.deleteForUser(userId, keepToken);
      await audit(host, userId, "auth.password.changed", userId, { otherSessionsEnded: ended });
    },

    async setRole(actorId: string, userId: string, role: Role): Promise<UserView> {
      const r = parse(roleSchema, role, "role");
      const before = await users.get(userId);
      await users.setRole(userId, r);
      await audit(host, actorId, "user.role_changed", userId, {
        email: before?.email,
        from: before?.role,
        to: r,
      });
      return (await users.get(userId))!;
    },

    async deleteUser(actorId: string, userId: string): Promise<void> {
      const before = await users.get(userId);
      await users.delete(userId); // sessions and API keys go with it (ON DELETE CASCADE)
      await audit(host, actorId, "user.deleted", userId, { email: before?.email, role: before?.role });
    },

    async createApiKey(actorId: string, userId: string, input: ApiKeyInput) {
      const k = parse(apiKeyInputSchema, input);
      const created = await apiKeys.create(userId, k.name, k.scopes);
      await audit(host, actorId, "apikey.created", created.apiKey.id, {
        owner: userId,
        name: k.name,
        prefix: created.apiKey.prefix,
        scopes: k.scopes,
      });
      return created;
    },

    listApiKeys: apiKeys.list,
    getApiKey: apiKeys.get,

    async revokeApiKey(actorId: string, id: string) {
      const key = await apiKeys.revoke(id);
      await audit(host, actorId, "apikey.revoked", id, {
        owner: key.userId,
        name: key.name,
        prefix: key.prefix,
      });
      return key;
    },

    /** The session behind a cookie token, or null. */
    session: sessions.lookup,

    /** Resolves a request's API key or session cookie; null when it carries neither or they are not valid. */
    async authenticateRequest(headers: HeaderSource): Promise<RequestAuth | null> {
      const c = credentialsOf(headers);
      if (c.apiKey) {
        const k = await apiKeys.authenticate(c.apiKey);
        return k ? { user: k.user, via: "apikey", scopes: k.scopes, apiKeyId: k.keyId } : null;
      }
      if (c.sessionToken) {
        const s = await sessions.lookup(c.sessionToken);
        return s
          ? { user: s.user, via: "session", scopes: [...allScopes], sessionToken: c.sessionToken }
          : null;
      }
      return null;
    },

    purgeExpiredSessions: sessions.purgeExpired,

    /** Same as `audit(host, …)`, reachable from the web app through the host. */
    audit: (
      actorId: string | null,
      action: string,
      target?: string | null,
      details?: Record<string, unknown>,
    ) => audit(host, actorId, action, target, details),
    listAudit: (q: AuditQuery = {}) => listAudit(host, q),
    /**
     * Request helpers for the web app, reached through the host so Next.js does not bundle the runtime.
     */
    http: {
      clientIp,
      isSameOrigin,
      isSecureRequest,
      isAllowedHost,
      isLocalClient,
      looksLocal,
      requestHost,
      hostRefusal,
      sessionCookie,
      clearSessionCookie,
      sessionCookieName,
    },
    parseEmail: (value: string) => parse(emailSchema, value, "email"),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
