import { z } from "zod";

/** Account rules in one place: the CLI, the service and the web forms all get their messages from here. */
export const roles = ["owner", "editor", "viewer"] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

export const scopes = ["read", "write"] as const;
export const scopeSchema = z.enum(scopes);
export type Scope = z.infer<typeof scopeSchema>;

export const minPasswordLength = 12;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(320, "e-mail address is too long")
  .pipe(z.email("enter a valid e-mail address"));

export const passwordSchema = z
  .string()
  .min(minPasswordLength, `password must be at least ${minPasswordLength} characters`)
  // scrypt hashes any length, but a megabyte "password" is a denial-of-service attempt, not a secret.
  .max(1024, "password must be at most 1024 characters");

export const newUserSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: z.string().trim().max(200, "name must be at most 200 characters").default(""),
  role: roleSchema.default("editor"),
});
export type NewUser = z.input<typeof newUserSchema>;

export const apiKeyInputSchema = z.object({
  name: z.string().trim().min(1, "give the key a name").max(100, "name must be at most 100 characters"),
  scopes: z
    .array(scopeSchema)
    .min(1, "choose at least one scope")
    .transform((s) => [...new Set(s)].sort()),
});
export type ApiKeyInput = z.input<typeof apiKeyInputSchema>;

/** What callers get back about a user: never the password hash. */
export interface UserView {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: Date;
}

export interface ApiKeyView {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}
