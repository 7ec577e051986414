import { z } from "zod";
import type { Context } from "../context";
import { publicProcedure, requireSession, router, viewerProcedure } from "../trpc";

// Shapes only; the account rules (length, e-mail format) live in the runtime and come back as field errors.
const credentials = z.object({ email: z.string().max(1000), password: z.string().max(4096) });

function setSession(ctx: Context, token: string) {
  ctx.resHeaders.append("set-cookie", ctx.host.auth.http.sessionCookie(token, { secure: ctx.secure }));
}

export const authRouter = router({
  /** Public: lets the pages decide between /setup, /signin and the app. */
  status: publicProcedure.query(async ({ ctx }) => ({
    needsSetup: !(await ctx.host.auth.hasUsers()),
    user: ctx.auth?.user ?? null,
  })),

  setup: publicProcedure
    .input(
      credentials.extend({
        name: z.string().max(1000).optional(),
        /** The one-time token from the console's setup link; not needed from a browser on this machine. */
        token: z.string().max(200).optional(),
      }),
    )
    .mutation(async ({ ctx, input: { token, ...input } }) => {
      const s = await ctx.host.auth.setup(input, { local: ctx.localClient, token });
      setSession(ctx, s.token);
      return { user: s.user };
    }),

  signIn: publicProcedure.input(credentials).mutation(async ({ ctx, input }) => {
    const s = await ctx.host.auth.signIn({ ...input, ip: ctx.ip });
    setSession(ctx, s.token);
    return { user: s.user };
  }),

  /** Deletes the session row, so a copied cookie stops working too. */
  signOut: viewerProcedure.mutation(async ({ ctx }) => {
    if (ctx.auth.sessionToken) await ctx.host.auth.signOut(ctx.auth.sessionToken, ctx.user.id);
    ctx.resHeaders.append("set-cookie", ctx.host.auth.http.clearSessionCookie({ secure: ctx.secure }));
    return { ok: true };
  }),

  /** Ends the user's other sessions; this one stays signed in. */
  changePassword: viewerProcedure
    .use(requireSession)
    .input(z.object({ current: z.string().max(4096), next: z.string().max(4096) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.host.auth.changePassword(ctx.user.id, input, ctx.auth.sessionToken);
      return { ok: true };
    }),
});
