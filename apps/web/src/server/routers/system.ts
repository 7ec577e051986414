import { viewerProcedure, router } from "../trpc";

export const systemRouter = router({
  info: viewerProcedure.query(({ ctx }) => ({
    version: ctx.host.version,
    db: ctx.host.dbHealth(),
    dataDir: ctx.host.config.dataDir,
    baseUrl: ctx.host.config.baseUrl,
    smtp: { domain: ctx.host.config.smtp.domain, port: ctx.host.config.smtp.port },
  })),
});
