import { type DatabaseHandle, newId } from "@switchyard/db";
import { AuthError } from "./errors";
import { type ApiKeyView, type Scope, scopeSchema, type UserView } from "./schemas";
import { isApiKeyFormat, newApiKey, sha256 } from "./tokens";
import { toUserView } from "./users";

// lastUsedAt is for people ("is this key still in use?"), so one write a minute per key is plenty.
const touchEveryMs = 60_000;

interface ApiKeyRow {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  scopes: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

function parseScopes(json: string): Scope[] {
  try {
    const parsed = scopeSchema.array().safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function toView(row: ApiKeyRow): ApiKeyView {
  const { id, userId, name, prefix, createdAt, lastUsedAt, revokedAt } = row;
  return { id, userId, name, prefix, scopes: parseScopes(row.scopes), createdAt, lastUsedAt, revokedAt };
}

/** Per-user API keys; only the SHA-256 of the key is stored and the key itself is returned once. */
export function createApiKeyStore(db: Pick<DatabaseHandle, "prisma">, now: () => number) {
  const { prisma } = db;
  return {
    async create(
      userId: string,
      name: string,
      scopes: Scope[],
    ): Promise<{ key: string; apiKey: ApiKeyView }> {
      const { key, prefix } = newApiKey();
      const row = await prisma.apiKey.create({
        data: { id: newId(), userId, name, prefix, keyHash: sha256(key), scopes: JSON.stringify(scopes) },
      });
      return { key, apiKey: toView(row) };
    },

    async list(userId?: string): Promise<(ApiKeyView & { userEmail: string })[]> {
      const rows = await prisma.apiKey.findMany({
        where: userId ? { userId } : {},
        orderBy: { createdAt: "desc" },
        include: { user: { select: { email: true } } },
      });
      return rows.map((r) => ({ ...toView(r), userEmail: r.user.email }));
    },

    async get(id: string): Promise<ApiKeyView | null> {
      const row = await prisma.apiKey.findUnique({ where: { id } });
      return row ? toView(row) : null;
    },

    async revoke(id: string): Promise<ApiKeyView> {
      const row = await prisma.apiKey.findUnique({ where: { id } });
      if (!row) throw new AuthError("not_found", "API key not found");
      if (row.revokedAt) return toView(row);
      return toView(await prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date(now()) } }));
    },

    /** The owner and scopes of a live key, or null; records when it was last used. */
    async authenticate(key: string): Promise<{ user: UserView; scopes: Scope[]; keyId: string } | null> {
      if (!isApiKeyFormat(key)) return null;
      const row = await prisma.apiKey.findUnique({
        where: { keyHash: sha256(key) },
        include: { user: { select: { id: true, email: true, name: true, role: true, createdAt: true } } },
      });
      if (!row || row.revokedAt) return null;
      const t = now();
      if (!row.lastUsedAt || t - row.lastUsedAt.getTime() >= touchEveryMs) {
        await prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date(t) } });
      }
      return { user: toUserView(row.user), scopes: parseScopes(row.scopes), keyId: row.id };
    },
  };
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;
