import { viewerProcedure, router } from "../trpc";

export const systemRouter = router({
  info: viewerProcedure.query(async ({ ctx }) => ({
    version: ctx.host.version,
    db: await ctx.host.dbHealth(),
    // A path on the server's disk helps an attacker more than a viewer or editor: owners only.
    dataDir: ctx.user.role === "owner" ? ctx.host.config.dataDir : null,
    baseUrl: ctx.host.config.baseUrl,
    smtp: { domain: ctx.host.config.smtp.domain, port: ctx.host.config.smtp.port },
  })),
});
