/** Settings › Agents: the SMTP credential the agents' `send_email` tool sends through. */
import { z } from "zod";
import { AGENT_EMAIL_SETTING, agentEmailSettingsSchema } from "../../agent-tools";
import { audit } from "../../auth";
import { ownerProcedure, router, TRPCError } from "../trpc";

export const agentEmailRouter = router({
  get: ownerProcedure.query(async ({ ctx }) => {
    const stored = agentEmailSettingsSchema.safeParse(await ctx.host.settings.get(AGENT_EMAIL_SETTING));
    return { email: stored.success ? stored.data : null };
  }),

  /** Only an SMTP credential will do: a different type would fail every send at run time instead of here. */
  set: ownerProcedure
    .input(
      z.object({
        credentialId: z.string().min(1).max(100),
        from: z.string().min(3).max(320).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const row = (await ctx.host.services.vault.list()).find((c) => c.id === input.credentialId);
      if (!row)
        throw new TRPCError({ code: "BAD_REQUEST", message: `credential ${input.credentialId} not found` });
      if (row.type !== "smtp")
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: `credential ${input.credentialId} is a ${row.type} credential; send_email needs an smtp one`,
        });
      await ctx.host.settings.set(AGENT_EMAIL_SETTING, input);
      await audit(ctx.host, ctx.user.id, "settings.agentEmail.updated", null, {
        credentialId: input.credentialId,
      });
      return { email: input };
    }),

  clear: ownerProcedure.mutation(async ({ ctx }) => {
    await ctx.host.settings.set(AGENT_EMAIL_SETTING, null);
    await audit(ctx.host, ctx.user.id, "settings.agentEmail.cleared", null);
    return { email: null };
  }),
});
