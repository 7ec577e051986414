import { FlowDefinition } from "@switchyard/engine";
import { z } from "zod";
import { HostError, type Problem } from "../../errors/codes";
import type { Host } from "../../host";
import { checkFlowFile, flowDescription, flowName, flowProblems } from "../rest/flow-file";
import { idParams, queryInt } from "../rest/params";
import { flowDetail, flowSummary, flowVersion } from "../rest/schemas";
import { flowView } from "../rest/views";
import { auditedEditorProcedure, router, viewerProcedure } from "../trpc";
import { importN8nProcedure } from "./flow-import-api";

const tags = ["Flows"];

const plural = (n: number) => `${n} problem${n === 1 ? "" : "s"}`;

/**
 * REST refuses a definition the engine finds problems in, listing every one (the editor's `flow.save`
 * keeps such drafts instead). Problems are named by their place in the request body.
 */
async function assertValid(host: Host, definition: FlowDefinition, prefix: string, flowId?: string) {
  const problems: Problem[] = flowProblems(
    definition,
    host.services.registry,
    prefix,
    host.services.flowChecks(),
  );
  // A webhook credential of the wrong type would let anyone in: refused at save, named like the others.
  // Settings problems (an error flow that cannot start) have no node: their field is the path.
  for (const p of await host.control.credentialProblems(definition, flowId)) {
    if (p.nodeId === undefined) {
      problems.push({ path: `${prefix}.${p.field}`, message: p.message, code: p.code });
      continue;
    }
    const index = definition.nodes.findIndex((n) => n.id === p.nodeId);
    problems.push({
      path: `${prefix}.nodes.${index}.config.${p.field}`,
      message: p.message,
      code: p.code,
      nodeId: p.nodeId,
    });
  }
  if (problems.length)
    throw new HostError("invalid_flow", `the flow has ${plural(problems.length)} (see details.problems)`, {
      problems,
    });
}

async function detail(host: Host, id: string, version?: number) {
  const flow = await host.flows.get(id);
  const v = flow ? await host.flows.getVersion(id, version) : null;
  if (!flow) throw new HostError("not_found", `flow ${id} not found`);
  if (!v) throw new HostError("not_found", `flow ${id} has no version ${version}`);
  return { flow: flowView(flow), version: v.version, definition: v.definition as Record<string, unknown> };
}

const flowList = z.object({ flows: z.array(flowSummary) }).meta({ id: "FlowList" });
const deleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "Deleted" });
const versionList = z.object({ versions: z.array(flowVersion) }).meta({ id: "FlowVersionList" });

/** `/api/v1/flows…`: the REST API's flow procedures (the UI's are in `flow.ts`). */
export const flowApiRouter = router({
  list: viewerProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/flows",
        operationId: "listFlows",
        tags,
        summary: "List flows",
        description: "Every flow, most recently changed first.",
      },
    })
    .input(
      z.strictObject({
        search: z.string().max(200).optional().describe("Only flows whose name contains this text"),
      }),
    )
    .output(flowList)
    .query(async ({ ctx, input }) => ({ flows: (await ctx.host.flows.list(input)).map(flowView) })),

  create: auditedEditorProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/flows",
        operationId: "createFlow",
        tags,
        summary: "Create a flow",
        description:
          "Validates the definition (schema and engine checks) and stores it as version 1. The flow starts inactive.",
      },
      rest: { status: 201, audit: "flow.created" },
    })
    .input(
      z.strictObject({
        name: flowName,
        description: flowDescription.optional(),
        definition: FlowDefinition.describe(
          "The flow: nodes, edges, settings, notes (see GET /schema/flow.json)",
        ),
      }),
    )
    .output(flowDetail)
    .mutation(async ({ ctx, input }) => {
      await assertValid(ctx.host, input.definition, "body.definition");
      const { id } = await ctx.host.flows.create({ ...input, createdBy: ctx.user.id });
      return detail(ctx.host, id);
    }),

  get: viewerProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/flows/{id}",
        operationId: "getFlow",
        tags,
        summary: "Get a flow with its definition",
      },
    })
    .input(
      idParams.extend({
        version: queryInt(1, 1_000_000).optional().describe("A saved version (default: the latest)"),
      }),
    )
    .output(flowDetail)
    .query(({ ctx, input }) => detail(ctx.host, input.id, input.version)),

  update: auditedEditorProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/flows/{id}",
        operationId: "updateFlow",
        tags,
        summary: "Rename a flow and/or save a new version",
        description:
          "A new definition is validated and appended as a new immutable version; runs keep the version they started with.",
      },
      rest: { audit: "flow.updated" },
    })
    .input(
      idParams
        .extend({
          name: flowName.optional().describe("New name"),
          definition: FlowDefinition.optional().describe(
            "Saved as a new version; an active flow serves it at once",
          ),
        })
        .refine(
          (b) => b.name !== undefined || b.definition !== undefined,
          "send a name, a definition or both",
        ),
    )
    .output(flowDetail)
    .mutation(async ({ ctx, input }) => {
      if (!(await ctx.host.flows.get(input.id)))
        throw new HostError("not_found", `flow ${input.id} not found`);
      if (input.definition) {
        await assertValid(ctx.host, input.definition, "body.definition", input.id);
        await ctx.host.flows.saveVersion(input.id, input.definition, ctx.user.id);
        await ctx.host.control.afterSave(input.id);
      }
      if (input.name !== undefined) await ctx.host.flows.rename(input.id, input.name);
      return detail(ctx.host, input.id);
    }),

  delete: auditedEditorProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/flows/{id}",
        operationId: "deleteFlow",
        tags,
        summary: "Delete a flow with its versions and runs",
      },
      rest: { audit: "flow.deleted" },
    })
    .input(idParams)
    .output(deleted)
    .mutation(async ({ ctx, input }) => {
      await ctx.host.control.setActive(input.id, false);
      await ctx.host.flows.delete(input.id);
      return { id: input.id, deleted: true as const };
    }),

  activate: auditedEditorProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/flows/{id}/activate",
        operationId: "activateFlow",
        tags,
        summary: "Activate a flow",
        description:
          "Binds the latest version's trigger (webhook path, e-mail address, schedule). Refused with every problem listed when the version has any.",
      },
      rest: { audit: "flow.activated" },
    })
    .input(idParams)
    .output(flowSummary)
    .mutation(async ({ ctx, input }) => {
      const version = await ctx.host.flows.getVersion(input.id);
      if (!version) throw new HostError("not_found", `flow ${input.id} not found`);
      const checked = checkFlowFile(
        version.definition,
        ctx.host.services.registry,
        ctx.host.services.flowChecks(),
      );
      if (!checked.ok) {
        const problems = checked.problems.map((p) => ({
          ...p,
          path: ["definition", p.path].filter(Boolean).join("."),
        }));
        throw new HostError(
          "invalid_flow",
          `cannot activate: version ${version.version} has ${plural(problems.length)}`,
          { problems },
        );
      }
      return flowView((await ctx.host.control.setActive(input.id, true))!);
    }),

  deactivate: auditedEditorProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/flows/{id}/deactivate",
        operationId: "deactivateFlow",
        tags,
        summary: "Deactivate a flow",
        description: "Its trigger stops listening at once; runs already admitted finish.",
      },
      rest: { audit: "flow.deactivated" },
    })
    .input(idParams)
    .output(flowSummary)
    .mutation(async ({ ctx, input }) => flowView((await ctx.host.control.setActive(input.id, false))!)),

  importN8n: importN8nProcedure,

  versions: viewerProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/flows/{id}/versions",
        operationId: "listFlowVersions",
        tags,
        summary: "List a flow's saved versions",
      },
    })
    .input(idParams)
    .output(versionList)
    .query(async ({ ctx, input }) => {
      if (!(await ctx.host.flows.get(input.id)))
        throw new HostError("not_found", `flow ${input.id} not found`);
      const versions = await ctx.host.flows.listVersions(input.id);
      return {
        versions: versions.map((v) => ({
          version: v.version,
          createdAt: v.createdAt.toISOString(),
          createdBy: v.createdBy,
        })),
      };
    }),
});
