import { type DatabaseHandle, newId } from "@switchyard/db";
import { newSessionToken, sha256 } from "./tokens";
import { toUserView } from "./users";

export const sessionCookieName = "sy_session";
export const sessionTtlMs = 30 * 24 * 60 * 60 * 1000;

/** `Set-Cookie` value for a new session; Secure whenever the browser reached us over https. */
export function sessionCookie(token: string, opts: { secure: boolean; maxAgeMs?: number }): string {
  const maxAge = Math.floor((opts.maxAgeMs ?? sessionTtlMs) / 1000);
  return [
    `${sessionCookieName}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${maxAge}`,
    ...(opts.secure ? ["Secure"] : []),
  ].join("; ");
}

export function clearSessionCookie(opts: { secure: boolean }): string {
  return sessionCookie("", { ...opts, maxAgeMs: 0 });
}

/** Sessions keep only the SHA-256 of their token, so a copy of the database cannot sign anyone in. */
export function createSessionStore(db: Pick<DatabaseHandle, "prisma">, now: () => number) {
  const { prisma } = db;
  return {
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const token = newSessionToken();
      const expiresAt = new Date(now() + sessionTtlMs);
      await prisma.session.create({ data: { id: newId(), userId, tokenHash: sha256(token), expiresAt } });
      return { token, expiresAt };
    },

    /** The signed-in user for a cookie token, or null when unknown or expired (an expired row is removed). */
    async lookup(token: string) {
      if (!token || token.length > 200) return null;
      const row = await prisma.session.findUnique({
        where: { tokenHash: sha256(token) },
        include: { user: { select: { id: true, email: true, name: true, role: true, createdAt: true } } },
      });
      if (!row) return null;
      if (row.expiresAt.getTime() <= now()) {
        await prisma.session.deleteMany({ where: { id: row.id } });
        return null;
      }
      return { sessionId: row.id, expiresAt: row.expiresAt, user: toUserView(row.user) };
    },

    async delete(token: string): Promise<boolean> {
      return (await prisma.session.deleteMany({ where: { tokenHash: sha256(token) } })).count > 0;
    },

    /** Signs a user out everywhere except (optionally) the session that asked. */
    async deleteForUser(userId: string, exceptToken?: string): Promise<number> {
      const except = exceptToken ? { tokenHash: { not: sha256(exceptToken) } } : {};
      return (await prisma.session.deleteMany({ where: { userId, ...except } })).count;
    },

    async purgeExpired(): Promise<number> {
      return (await prisma.session.deleteMany({ where: { expiresAt: { lte: new Date(now()) } } })).count;
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
