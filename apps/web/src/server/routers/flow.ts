import { z } from "zod";
import { editorProcedure, router, TRPCError, viewerProcedure } from "../trpc";

const flowId = z.object({ id: z.string().min(1) });
const definition = z.record(z.string(), z.unknown());

// Matched by name: importing @switchyard/db here would bundle Prisma into the web app a second time.
function notFound(e: unknown): never {
  if (e instanceof Error && e.name === "NotFoundError") throw new TRPCError({ code: "NOT_FOUND", message: e.message });
  throw e;
}

export const flowRouter = router({
  list: viewerProcedure
    .input(z.object({ search: z.string().max(200).optional() }).optional())
    .query(({ ctx, input }) => ctx.host.flows.list({ search: input?.search })),

  get: viewerProcedure.input(flowId.extend({ version: z.number().int().positive().optional() })).query(async ({ ctx, input }) => {
    const flow = await ctx.host.flows.get(input.id);
    const version = await ctx.host.flows.getVersion(input.id, input.version);
    if (!flow || !version) throw new TRPCError({ code: "NOT_FOUND", message: `flow ${input.id} not found` });
    return { flow, version };
  }),

  create: editorProcedure
    .input(z.object({ name: z.string().trim().min(1).max(200), description: z.string().max(2000).optional(), definition }))
    .mutation(({ ctx, input }) => ctx.host.flows.create(input)),

  save: editorProcedure
    .input(flowId.extend({ definition }))
    .mutation(({ ctx, input }) => ctx.host.flows.saveVersion(input.id, input.definition).catch(notFound)),

  rename: editorProcedure
    .input(flowId.extend({ name: z.string().trim().min(1).max(200) }))
    .mutation(({ ctx, input }) => ctx.host.flows.rename(input.id, input.name).catch(notFound)),

  versions: viewerProcedure.input(flowId).query(({ ctx, input }) => ctx.host.flows.listVersions(input.id)),

  setActive: editorProcedure
    .input(flowId.extend({ active: z.boolean() }))
    .mutation(({ ctx, input }) => ctx.host.flows.setActive(input.id, input.active).catch(notFound)),

  delete: editorProcedure.input(flowId).mutation(async ({ ctx, input }) => {
    const flow = await ctx.host.flows.get(input.id);
    if (!flow) throw new TRPCError({ code: "NOT_FOUND", message: `flow ${input.id} not found` });
    await ctx.host.flows.delete(input.id);
    return { id: input.id };
  }),
});
