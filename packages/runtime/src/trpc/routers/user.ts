import { z } from "zod";
import { ownerProcedure, requireSession, router, TRPCError } from "../trpc";

const role = z.enum(["owner", "editor", "viewer"]);
const userId = z.object({ id: z.string().min(1).max(100) });

/** Owners manage people. */
export const userRouter = router({
  list: ownerProcedure.query(({ ctx }) => ctx.host.auth.listUsers()),

  create: ownerProcedure
    .use(requireSession)
    .input(
      z.object({
        email: z.string().max(1000),
        password: z.string().max(4096),
        name: z.string().max(1000).optional(),
        role,
      }),
    )
    .mutation(({ ctx, input }) => ctx.host.auth.createUser(ctx.user.id, input)),

  setRole: ownerProcedure
    .use(requireSession)
    .input(userId.extend({ role }))
    .mutation(({ ctx, input }) => ctx.host.auth.setRole(ctx.user.id, input.id, input.role)),

  delete: ownerProcedure
    .use(requireSession)
    .input(userId)
    .mutation(async ({ ctx, input }) => {
      // Deleting yourself would also end this session mid-request; another owner can do it.
      if (input.id === ctx.user.id)
        throw new TRPCError({ code: "BAD_REQUEST", message: "you cannot delete your own account" });
      await ctx.host.auth.deleteUser(ctx.user.id, input.id);
      return { id: input.id };
    }),
});
