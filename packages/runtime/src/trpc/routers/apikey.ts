import { z } from "zod";
import { requireSession, router, TRPCError, viewerProcedure } from "../trpc";

/** Everyone manages their own keys; owners also see and revoke everyone's. */
export const apiKeyRouter = router({
  list: viewerProcedure
    .input(z.object({ all: z.boolean().optional() }).optional())
    .query(({ ctx, input }) => {
      if (input?.all && ctx.user.role !== "owner")
        throw new TRPCError({ code: "FORBIDDEN", message: "only owners can list everyone's keys" });
      return ctx.host.auth.listApiKeys(input?.all ? undefined : ctx.user.id);
    }),

  /** Returns the key once; only its hash is stored. */
  create: viewerProcedure
    .use(requireSession)
    .input(z.object({ name: z.string().max(1000), scopes: z.array(z.enum(["read", "write"])).max(2) }))
    .mutation(async ({ ctx, input }) => {
      if (ctx.user.role === "viewer" && input.scopes.includes("write")) {
        throw new TRPCError({ code: "FORBIDDEN", message: "viewers can only create read keys" });
      }
      return ctx.host.auth.createApiKey(ctx.user.id, ctx.user.id, input);
    }),

  revoke: viewerProcedure
    .use(requireSession)
    .input(z.object({ id: z.string().min(1).max(100) }))
    .mutation(async ({ ctx, input }) => {
      const key = await ctx.host.auth.getApiKey(input.id);
      if (!key) throw new TRPCError({ code: "NOT_FOUND", message: "API key not found" });
      if (key.userId !== ctx.user.id && ctx.user.role !== "owner") {
        throw new TRPCError({ code: "FORBIDDEN", message: "you can only revoke your own keys" });
      }
      return ctx.host.auth.revokeApiKey(ctx.user.id, input.id);
    }),
});
