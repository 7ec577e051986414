import { FlowDefinition } from "@switchyard/engine";
import { z } from "zod";
import type { Host } from "../../host";
import { ApiError } from "../errors";
import { checkFlowFile, flowDescription, flowName, flowProblems } from "../flow-file";
import { idParams, queryInt } from "../params";
import { defineRoute, named } from "../route";
import { flowDetail, flowSummary, flowVersion } from "../schemas";
import { flowView } from "../views";

const tag = "Flows";

const createFlowBody = named(
  "CreateFlow",
  z.strictObject({
    name: flowName,
    description: flowDescription.optional(),
    definition: FlowDefinition.describe(
      "The flow: nodes, edges, settings, notes (see GET /schema/flow.json)",
    ),
  }),
);

const updateFlowBody = named(
  "UpdateFlow",
  z
    .strictObject({
      name: flowName.optional().describe("New name"),
      definition: FlowDefinition.optional().describe(
        "Saved as a new version; an active flow serves it at once",
      ),
    })
    .refine((b) => b.name !== undefined || b.definition !== undefined, "send a name, a definition or both"),
);

/** Refuses a definition the engine finds problems in, listing every one of them. */
async function assertValid(host: Host, definition: FlowDefinition, prefix: string) {
  const problems = flowProblems(definition, host.services.registry, prefix);
  // A webhook credential of the wrong type would let anyone in: refused at save, named like the others.
  for (const p of await host.control.credentialProblems(definition)) {
    const index = definition.nodes.findIndex((n) => n.id === p.nodeId);
    problems.push({
      path: `${prefix}.nodes.${index}.config.${p.field}`,
      message: p.message,
      code: p.code,
      nodeId: p.nodeId!,
    });
  }
  if (problems.length) {
    throw new ApiError(
      "invalid_flow",
      `the flow has ${problems.length} problem${problems.length === 1 ? "" : "s"} (see details.problems)`,
      { problems },
    );
  }
}

async function detail(host: Host, id: string, version?: number) {
  const flow = await host.flows.get(id);
  const v = flow ? await host.flows.getVersion(id, version) : null;
  if (!flow) throw new ApiError("not_found", `flow ${id} not found`);
  if (!v) throw new ApiError("not_found", `flow ${id} has no version ${version}`);
  return { flow: flowView(flow), version: v.version, definition: v.definition as Record<string, unknown> };
}

export const flowRoutes = [
  defineRoute({
    method: "GET",
    path: "/flows",
    operationId: "listFlows",
    tag,
    summary: "List flows",
    description: "Every flow, most recently changed first.",
    access: "read",
    query: z.object({
      search: z.string().max(200).optional().describe("Only flows whose name contains this text"),
    }),
    responses: { 200: named("FlowList", z.object({ flows: z.array(flowSummary) })) },
    async handler({ host, query }) {
      const flows = await host.flows.list({ search: query.search });
      return { status: 200 as const, body: { flows: flows.map(flowView) } };
    },
  }),

  defineRoute({
    method: "POST",
    path: "/flows",
    operationId: "createFlow",
    audit: "flow.created",
    tag,
    summary: "Create a flow",
    description:
      "Validates the definition (schema and engine checks) and stores it as version 1. The flow starts inactive.",
    access: "write",
    body: createFlowBody,
    responses: { 201: flowDetail },
    async handler({ host, body, auth }) {
      await assertValid(host, body.definition, "body.definition");
      const { id } = await host.flows.create({ ...body, createdBy: auth?.user.id });
      return { status: 201 as const, body: await detail(host, id) };
    },
  }),

  defineRoute({
    method: "GET",
    path: "/flows/{id}",
    operationId: "getFlow",
    tag,
    summary: "Get a flow with its definition",
    access: "read",
    params: idParams,
    query: z.object({
      version: queryInt(1, 1_000_000).optional().describe("A saved version (default: the latest)"),
    }),
    responses: { 200: flowDetail },
    async handler({ host, params, query }) {
      return { status: 200 as const, body: await detail(host, params.id, query.version) };
    },
  }),

  defineRoute({
    method: "PUT",
    path: "/flows/{id}",
    operationId: "updateFlow",
    audit: "flow.updated",
    tag,
    summary: "Rename a flow and/or save a new version",
    description:
      "A new definition is validated and appended as a new immutable version; runs keep the version they started with.",
    access: "write",
    params: idParams,
    body: updateFlowBody,
    responses: { 200: flowDetail },
    async handler({ host, params, body, auth }) {
      if (!(await host.flows.get(params.id))) throw new ApiError("not_found", `flow ${params.id} not found`);
      if (body.definition) {
        await assertValid(host, body.definition, "body.definition");
        await host.flows.saveVersion(params.id, body.definition, auth?.user.id);
        await host.control.afterSave(params.id);
      }
      if (body.name !== undefined) await host.flows.rename(params.id, body.name);
      return { status: 200 as const, body: await detail(host, params.id) };
    },
  }),

  defineRoute({
    method: "DELETE",
    path: "/flows/{id}",
    operationId: "deleteFlow",
    audit: "flow.deleted",
    tag,
    summary: "Delete a flow with its versions and runs",
    access: "write",
    params: idParams,
    responses: { 200: named("Deleted", z.object({ id: z.string(), deleted: z.literal(true) })) },
    async handler({ host, params }) {
      await host.control.setActive(params.id, false);
      await host.flows.delete(params.id);
      return { status: 200 as const, body: { id: params.id, deleted: true as const } };
    },
  }),

  defineRoute({
    method: "POST",
    path: "/flows/{id}/activate",
    operationId: "activateFlow",
    audit: "flow.activated",
    tag,
    summary: "Activate a flow",
    description:
      "Binds the latest version's trigger (webhook path, e-mail address, schedule). Refused with every problem listed when the version has any.",
    access: "write",
    params: idParams,
    responses: { 200: flowSummary },
    async handler({ host, params }) {
      const version = await host.flows.getVersion(params.id);
      if (!version) throw new ApiError("not_found", `flow ${params.id} not found`);
      const checked = checkFlowFile(version.definition, host.services.registry);
      if (!checked.ok) {
        const problems = checked.problems.map((p) => ({
          ...p,
          path: ["definition", p.path].filter(Boolean).join("."),
        }));
        throw new ApiError(
          "invalid_flow",
          `cannot activate: version ${version.version} has ${problems.length} problem${problems.length === 1 ? "" : "s"}`,
          {
            problems,
          },
        );
      }
      const flow = await host.control.setActive(params.id, true);
      return { status: 200 as const, body: flowView(flow!) };
    },
  }),

  defineRoute({
    method: "POST",
    path: "/flows/{id}/deactivate",
    operationId: "deactivateFlow",
    audit: "flow.deactivated",
    tag,
    summary: "Deactivate a flow",
    description: "Its trigger stops listening at once; runs already admitted finish.",
    access: "write",
    params: idParams,
    responses: { 200: flowSummary },
    async handler({ host, params }) {
      const flow = await host.control.setActive(params.id, false);
      return { status: 200 as const, body: flowView(flow!) };
    },
  }),

  defineRoute({
    method: "GET",
    path: "/flows/{id}/versions",
    operationId: "listFlowVersions",
    tag,
    summary: "List a flow's saved versions",
    access: "read",
    params: idParams,
    responses: { 200: named("FlowVersionList", z.object({ versions: z.array(flowVersion) })) },
    async handler({ host, params }) {
      if (!(await host.flows.get(params.id))) throw new ApiError("not_found", `flow ${params.id} not found`);
      const versions = await host.flows.listVersions(params.id);
      return {
        status: 200 as const,
        body: {
          versions: versions.map((v) => ({
            version: v.version,
            createdAt: v.createdAt.toISOString(),
            createdBy: v.createdBy,
          })),
        },
      };
    },
  }),
];
