import { audit } from "../../auth";
import {
  type CredentialType,
  credentialLabels,
  credentialTypes,
  secretCredentialFields,
} from "@switchyard/contracts/credentials";
import { CredentialError } from "../../secrets/vault";
import { z } from "zod";
import { editorProcedure, ownerProcedure, router, TRPCError, viewerProcedure } from "../trpc";
import { readLlm } from "./settings-llm";

const typeNames = Object.keys(credentialTypes) as [CredentialType, ...CredentialType[]];

export interface CredentialField {
  name: string;
  required: boolean;
  masked: boolean;
  options?: string[];
  default?: string;
  pattern?: string;
  minLength?: number;
}

type JsonProp = { enum?: string[]; default?: string; pattern?: string; minLength?: number };

/** The create form of every type, generated from its zod schema (input side: defaults are optional). */
async function describeTypes() {
  return typeNames.map((type) => {
    const json = z.toJSONSchema(credentialTypes[type], { io: "input" }) as {
      properties: Record<string, JsonProp>;
      required?: string[];
    };
    const fields: CredentialField[] = Object.entries(json.properties).map(([name, p]) => ({
      name,
      required: json.required?.includes(name) ?? false,
      masked: secretCredentialFields.has(name),
      ...(p.enum ? { options: p.enum } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
      ...(p.pattern ? { pattern: p.pattern } : {}),
      ...(p.minLength !== undefined ? { minLength: p.minLength } : {}),
    }));
    return { type, label: credentialLabels[type], fields };
  });
}

const badData = (message: string, issues: { path: (string | number)[]; message: string }[]) =>
  new TRPCError({
    code: "BAD_REQUEST",
    message,
    cause: new z.ZodRealError(
      issues.map((i) => ({
        code: "custom" as const,
        path: ["data", ...i.path],
        message: i.message,
        input: undefined,
      })),
    ),
  });

/**
 * Credentials are write-only: values go in through `create` and are only ever decrypted on the
 * server for a node or provider that needs them. Nothing here returns a value.
 */
export const credentialRouter = router({
  types: viewerProcedure.query(() => describeTypes()),

  /** Name, type and which fields are stored; never the values. */
  list: viewerProcedure.query(async ({ ctx }) => {
    const rows = await ctx.host.services.vault.list();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      label: credentialLabels[r.type as CredentialType] ?? r.type,
      fields: r.fields,
      // Not secret: where the credential may be sent (null: none stored, so it is sent nowhere).
      ...(r.type === "webhookSecret" ? {} : { allowedHosts: r.allowedHosts }),
      updatedAt: r.updatedAt,
    }));
  }),

  /**
   * Replaces where a stored credential may be sent; its secret values stay as they are. Owner only: the hosts are
   * what keeps a secret from an editor, who could otherwise widen them to a server of their own and have a node
   * send the secret there (docs/security.md). Editors who need other hosts create a credential of their own.
   */
  setAllowedHosts: ownerProcedure
    .input(z.object({ id: z.string().min(1).max(100), allowedHosts: z.string().max(5000) }))
    .mutation(async ({ ctx, input }) => {
      const row = (await ctx.host.services.vault.list()).find((c) => c.id === input.id);
      if (!row) throw new TRPCError({ code: "NOT_FOUND", message: "credential not found" });
      let result: { id: string; allowedHosts: string[] };
      try {
        result = await ctx.host.services.vault.setAllowedHosts(input.id, input.allowedHosts);
      } catch (e) {
        if (!(e instanceof CredentialError)) throw e;
        throw badData(e.message, [{ path: ["allowedHosts"], message: e.message }]);
      }
      await audit(ctx.host, ctx.user.id, "credential.hosts.updated", input.id, {
        name: row.name,
        allowedHosts: result.allowedHosts,
      });
      return result;
    }),

  create: editorProcedure
    .input(
      z.object({
        name: z.string().trim().min(1, "give the credential a name").max(100),
        type: z.enum(typeNames),
        data: z.record(z.string(), z.string().max(20_000)),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const schema = credentialTypes[input.type];
      const unknown = Object.keys(input.data).filter((k) => !(k in schema.shape));
      if (unknown.length > 0)
        throw badData(
          `a ${credentialLabels[input.type]} credential has no field ${unknown.join(", ")}`,
          unknown.map((k) => ({ path: [k], message: "not a field of this credential type" })),
        );
      const parsed = schema.safeParse(input.data);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw badData(
          `the ${credentialLabels[input.type]} credential is invalid: ${first?.path.join(".")}: ${first?.message}`,
          parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
        );
      }
      const existing = await ctx.host.services.vault.list();
      if (existing.some((c) => c.name === input.name))
        throw new TRPCError({
          code: "CONFLICT",
          message: `a credential named "${input.name}" already exists`,
        });
      const { id } = await ctx.host.services.vault.create({
        name: input.name,
        type: input.type,
        data: input.data,
      });
      await audit(ctx.host, ctx.user.id, "credential.created", id, { name: input.name, type: input.type });
      return { id, name: input.name, type: input.type };
    }),

  delete: ownerProcedure
    .input(z.object({ id: z.string().min(1).max(100) }))
    .mutation(async ({ ctx, input }) => {
      const row = (await ctx.host.services.vault.list()).find((c) => c.id === input.id);
      if (!row) throw new TRPCError({ code: "NOT_FOUND", message: "credential not found" });
      // The agent runtime decrypts the provider's key on every reload: deleting it would break agents.
      if ((await readLlm(ctx.host))?.credentialId === input.id)
        throw new TRPCError({
          code: "CONFLICT",
          message: `"${row.name}" is the LLM provider's key in Settings › Models; choose another credential there first`,
        });
      await ctx.host.services.vault.delete(input.id);
      await audit(ctx.host, ctx.user.id, "credential.deleted", input.id, { name: row.name, type: row.type });
      return { id: input.id };
    }),
});
