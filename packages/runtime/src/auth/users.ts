import { newId, type StorageHandle, sqlDate } from "@switchyard/db";
import { AuthError } from "./errors";
import { type Role, roleSchema, type UserView } from "./schemas";

interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
}

export function toUserView(row: UserRow): UserView {
  // An unknown role in the table (edited by hand) is treated as the least privileged one.
  const role = roleSchema.safeParse(row.role);
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: role.success ? role.data : "viewer",
    createdAt: row.createdAt,
  };
}

const publicColumns = { id: true, email: true, name: true, role: true, createdAt: true } as const;

/**
 * User rows. Writes that must hold an invariant under concurrency ("only the first user becomes owner",
 * "never zero owners") are single SQL statements on the raw connection, so the database makes them
 * atomic (on PostgreSQL under a table lock, as two statements racing could otherwise both pass the check).
 */
export function createUserStore(db: StorageHandle) {
  const { prisma } = db;
  const guarded = db.kind === "sqlite" ? sqliteGuards(db.sql) : postgresGuards(db.pool);
  // Once a user exists the answer cannot go back to "none" (the last owner cannot be deleted), so it is cached.
  let known = false;

  return {
    async hasUsers(): Promise<boolean> {
      if (!known) known = (await prisma.user.count()) > 0;
      return known;
    },

    async byEmail(email: string) {
      return prisma.user.findUnique({ where: { email } });
    },

    async get(id: string): Promise<UserView | null> {
      const row = await prisma.user.findUnique({ where: { id }, select: publicColumns });
      return row ? toUserView(row) : null;
    },

    async list(): Promise<UserView[]> {
      return (await prisma.user.findMany({ orderBy: { createdAt: "asc" }, select: publicColumns })).map(
        toUserView,
      );
    },

    async create(u: { email: string; name: string; role: Role; passwordHash: string }): Promise<UserView> {
      if (await prisma.user.findUnique({ where: { email: u.email }, select: { id: true } })) {
        throw new AuthError("email_taken", "a user with this e-mail address already exists", "email");
      }
      const row = await prisma.user
        .create({ data: { id: newId(), ...u }, select: publicColumns })
        .catch((e: unknown) => {
          // Two requests for the same address at once: the unique index decides.
          if ((e as { code?: string }).code === "P2002")
            throw new AuthError("email_taken", "a user with this e-mail address already exists", "email");
          throw e;
        });
      known = true;
      return toUserView(row);
    },

    /** Creates the owner only while the table is empty; false when someone got there first. */
    async createFirstOwner(u: { email: string; name: string; passwordHash: string }): Promise<string | null> {
      const id = newId();
      const changed = await guarded.insertFirst(id, u);
      if (changed === 1) known = true;
      return changed === 1 ? id : null;
    },

    async setRole(id: string, role: Role): Promise<void> {
      if (!(await guarded.exists(id))) throw new AuthError("not_found", "user not found");
      if ((await guarded.updateRole(role, id)) === 0) throw lastOwner();
    },

    async delete(id: string): Promise<void> {
      if (!(await guarded.exists(id))) throw new AuthError("not_found", "user not found");
      if ((await guarded.deleteUser(id)) === 0) throw lastOwner();
    },

    async setPasswordHash(id: string, passwordHash: string): Promise<void> {
      await prisma.user.update({ where: { id }, data: { passwordHash } });
    },

    async passwordHash(id: string): Promise<string | null> {
      return (
        (await prisma.user.findUnique({ where: { id }, select: { passwordHash: true } }))?.passwordHash ??
        null
      );
    },
  };
}

const lastOwner = () => new AuthError("last_owner", "there must always be at least one owner", "role");

export type UserStore = ReturnType<typeof createUserStore>;

type FirstOwner = { email: string; name: string; passwordHash: string };
const keepAnOwner = `(role <> 'owner' OR (SELECT COUNT(*) FROM "User" WHERE role = 'owner') > 1)`;

function sqliteGuards(sql: Extract<StorageHandle, { kind: "sqlite" }>["sql"]) {
  const insertFirst = sql.prepare(
    `INSERT INTO "User" (id, email, name, passwordHash, role, createdAt)
     SELECT ?, ?, ?, ?, 'owner', ? WHERE NOT EXISTS (SELECT 1 FROM "User")`,
  );
  const updateRole = sql.prepare(
    `UPDATE "User" SET role = ? WHERE id = ? AND (? = 'owner' OR ${keepAnOwner})`,
  );
  const deleteUser = sql.prepare(`DELETE FROM "User" WHERE id = ? AND ${keepAnOwner}`);
  const exists = sql.prepare(`SELECT role FROM "User" WHERE id = ?`);
  return {
    insertFirst: async (id: string, u: FirstOwner) =>
      insertFirst.run(id, u.email, u.name, u.passwordHash, sqlDate()).changes,
    updateRole: async (role: Role, id: string) => updateRole.run(role, id, role).changes,
    deleteUser: async (id: string) => deleteUser.run(id).changes,
    exists: async (id: string) => exists.get(id) !== undefined,
  };
}

function postgresGuards(pool: Extract<StorageHandle, { kind: "postgres" }>["pool"]) {
  // READ COMMITTED would let two requests each see "another owner exists": the lock serialises them.
  const locked = async (sql: string, args: unknown[]) => {
    const c = await pool.connect();
    try {
      await c.query("BEGIN");
      await c.query(`LOCK TABLE "User" IN SHARE ROW EXCLUSIVE MODE`);
      const r = await c.query(sql, args);
      await c.query("COMMIT");
      return r.rowCount ?? 0;
    } catch (e) {
      await c.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  };
  return {
    insertFirst: (id: string, u: FirstOwner) =>
      locked(
        `INSERT INTO "User" (id, email, name, "passwordHash", role, "createdAt")
         SELECT $1, $2, $3, $4, 'owner', (now() AT TIME ZONE 'UTC') WHERE NOT EXISTS (SELECT 1 FROM "User")`,
        [id, u.email, u.name, u.passwordHash],
      ),
    updateRole: (role: Role, id: string) =>
      locked(`UPDATE "User" SET role = $1 WHERE id = $2 AND ($1 = 'owner' OR ${keepAnOwner})`, [role, id]),
    deleteUser: (id: string) => locked(`DELETE FROM "User" WHERE id = $1 AND ${keepAnOwner}`, [id]),
    exists: async (id: string) =>
      ((await pool.query(`SELECT 1 FROM "User" WHERE id = $1`, [id])).rowCount ?? 0) > 0,
  };
}
