import { type DatabaseHandle, newId } from "@switchyard/db";

/**
 * Audit actions written by the auth code. Other parts of the app add their own dotted names
 * (`flow.saved`, `flow.activated`, `credential.updated`, …) through `audit()`.
 */
export type AuthAuditAction =
  | "auth.signin.succeeded"
  | "auth.signin.failed"
  | "auth.signin.throttled"
  | "auth.signout"
  | "auth.password.changed"
  | "user.created"
  | "user.role_changed"
  | "user.deleted"
  | "apikey.created"
  | "apikey.revoked";

export interface AuditEntry {
  id: string;
  at: Date;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  target: string | null;
  details: unknown;
}

/** Appends one audit row. `details` is stored as JSON and must not contain secrets. */
export async function audit(
  host: { db: Pick<DatabaseHandle, "prisma"> },
  actorId: string | null,
  action: string,
  target?: string | null,
  details?: Record<string, unknown>,
): Promise<void> {
  await host.db.prisma.auditLog.create({
    data: {
      id: newId(),
      actorId,
      action,
      target: target ?? null,
      details: details === undefined ? null : JSON.stringify(details),
    },
  });
}

export interface AuditQuery {
  limit?: number;
  /** Id of the last entry of the previous page (ids sort by time). */
  cursor?: string;
  action?: string;
}

/** Newest first, with the actor's e-mail resolved for display (null once the user is deleted). */
export async function listAudit(
  host: { db: Pick<DatabaseHandle, "prisma"> },
  q: AuditQuery = {},
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const { prisma } = host.db;
  const limit = Math.min(Math.max(q.limit ?? 50, 1), 200);
  const rows = await prisma.auditLog.findMany({
    where: { ...(q.cursor ? { id: { lt: q.cursor } } : {}), ...(q.action ? { action: q.action } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const actorIds = [...new Set(page.map((r) => r.actorId).filter((id): id is string => !!id))];
  const users = actorIds.length
    ? await prisma.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } })
    : [];
  const emails = new Map(users.map((u) => [u.id, u.email]));
  return {
    entries: page.map((r) => ({
      id: r.id,
      at: r.at,
      actorId: r.actorId,
      actorEmail: r.actorId ? (emails.get(r.actorId) ?? null) : null,
      action: r.action,
      target: r.target,
      details: r.details ? (JSON.parse(r.details) as unknown) : null,
    })),
    nextCursor: rows.length > limit ? page[page.length - 1]!.id : null,
  };
}
