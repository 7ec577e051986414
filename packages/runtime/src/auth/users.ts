import { type DatabaseHandle, newId, sqlDate } from "@switchyard/db";
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
 * "never zero owners") are single SQL statements on the raw connection, so SQLite makes them atomic.
 */
export function createUserStore(db: Pick<DatabaseHandle, "prisma" | "sql">) {
  const { prisma, sql } = db;
  const insertFirst = sql.prepare(
    `INSERT INTO "User" (id, email, name, passwordHash, role, createdAt)
     SELECT ?, ?, ?, ?, 'owner', ? WHERE NOT EXISTS (SELECT 1 FROM "User")`,
  );
  const keepAnOwner = `(role <> 'owner' OR (SELECT COUNT(*) FROM "User" WHERE role = 'owner') > 1)`;
  const updateRole = sql.prepare(
    `UPDATE "User" SET role = ? WHERE id = ? AND (? = 'owner' OR ${keepAnOwner})`,
  );
  const deleteUser = sql.prepare(`DELETE FROM "User" WHERE id = ? AND ${keepAnOwner}`);
  const exists = sql.prepare(`SELECT role FROM "User" WHERE id = ?`);
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
    createFirstOwner(u: { email: string; name: string; passwordHash: string }): string | null {
      const id = newId();
      const changed = insertFirst.run(id, u.email, u.name, u.passwordHash, sqlDate()).changes;
      if (changed === 1) known = true;
      return changed === 1 ? id : null;
    },

    setRole(id: string, role: Role): void {
      if (!exists.get(id)) throw new AuthError("not_found", "user not found");
      if (updateRole.run(role, id, role).changes === 0) throw lastOwner();
    },

    delete(id: string): void {
      if (!exists.get(id)) throw new AuthError("not_found", "user not found");
      if (deleteUser.run(id).changes === 0) throw lastOwner();
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
