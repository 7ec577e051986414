import { z } from "zod";
import { createTemplates, defaultTemplatesDir, TEMPLATE_ID } from "../../templates";
import type { Host } from "../../host";
import { editorProcedure, router, TRPCError, viewerProcedure } from "../trpc";

const templatesOf = (host: Host) =>
  createTemplates({
    dir: defaultTemplatesDir,
    registry: host.services.registry,
    checks: () => host.services.flowChecks(),
  });

/** "Start from a template" on the Flows page: the files in examples/flows/. */
export const templateRouter = router({
  list: viewerProcedure.query(({ ctx }) => templatesOf(ctx.host).list()),

  /** Creates a new (inactive) flow from a template, named after it. */
  use: editorProcedure
    .input(z.object({ id: z.string().regex(TEMPLATE_ID, "a template id is a file name of examples/flows/") }))
    .mutation(async ({ ctx, input }) => {
      const template = templatesOf(ctx.host).get(input.id);
      if (!template) throw new TRPCError({ code: "NOT_FOUND", message: `no template "${input.id}"` });
      if (!template.definition || template.problem)
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: template.problem ?? "the template cannot be used",
        });
      const created = await ctx.host.flows.create({
        name: template.name,
        description: template.description || undefined,
        definition: template.definition,
        createdBy: ctx.user.id,
      });
      await ctx.host.auth.audit(ctx.user.id, "flow.created", created.id, {
        name: template.name,
        template: template.id,
      });
      return { id: created.id, name: template.name };
    }),
});
