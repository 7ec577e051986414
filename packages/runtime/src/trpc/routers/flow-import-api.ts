/**
 * `POST /api/v1/flows/import/n8n` (tRPC `api.flows.importN8n`, also what the Flows page's "Import from
 * n8n" calls): turns an n8n workflow export into a flow, stores it as an inactive draft and answers
 * with the import report and the problems left. Unlike `createFlow` it keeps a flow with problems
 * (placeholders, credentials to pick): activation refuses it until they are resolved.
 */
import { FlowDefinition, validateFlow } from "@switchyard/engine";
import { importN8nWorkflow, N8nImportError } from "@switchyard/import-n8n";
import { z } from "zod";
import { HostError } from "../../errors/codes";
import { flowDescription, flowName } from "../rest/flow-file";
import { flowSummary, flowDefinitionOut } from "../rest/schemas";
import { flowView } from "../rest/views";
import { auditedEditorProcedure } from "../trpc";

/** Largest n8n export accepted as text (the request body cap applies too). */
const MAX_WORKFLOW_TEXT = 10 * 1024 * 1024;

const ref = z.record(z.string().max(500), z.string().min(1).max(200));

const finding = z.object({
  node: z.string().optional().describe("The n8n node's name"),
  field: z.string().optional().describe("The parameter or config field"),
  message: z.string(),
});

export const importReport = z
  .object({
    source: z.literal("n8n"),
    workflowName: z.string(),
    nodes: z.array(
      z.object({
        n8nName: z.string(),
        n8nType: z.string(),
        n8nTypeVersion: z.number(),
        id: z.string().describe("The Switchyard node (or note) id"),
        type: z.string().describe("The Switchyard node type; `note` for a sticky note"),
        status: z.enum(["mapped", "placeholder", "note"]),
      }),
    ),
    losses: z.array(finding).describe("What the flow does not express (it still works)"),
    problems: z
      .array(finding.extend({ code: z.string() }))
      .describe("What a person must resolve before activating"),
  })
  .meta({ id: "N8nImportReport" });

const imported = z
  .object({
    flow: flowSummary,
    version: z.int(),
    definition: flowDefinitionOut,
    report: importReport,
    problems: z
      .array(
        z.object({
          code: z.string(),
          message: z.string(),
          nodeId: z.string().optional(),
          field: z.string().optional(),
        }),
      )
      .describe("What validation finds in the stored draft (activation refuses it while there are any)"),
  })
  .meta({ id: "N8nImport" });

export const importN8nProcedure = auditedEditorProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/flows/import/n8n",
      operationId: "importN8nFlow",
      tags: ["Flows"],
      summary: "Import an n8n workflow",
      description:
        "Translates an n8n workflow export (nodes, connections, expressions) into a flow and stores it as an inactive version 1, even with problems; answers with the import report (every mapping, loss and problem) and the validation problems that block activation.",
    },
    rest: { status: 201, audit: "flow.imported" },
  })
  .input(
    z.strictObject({
      workflow: z
        .union([z.string().max(MAX_WORKFLOW_TEXT), z.record(z.string(), z.unknown())])
        .describe("The n8n workflow export: its JSON text or the parsed object"),
      name: flowName.optional().describe("Name of the new flow (default: the workflow's name)"),
      description: flowDescription.optional(),
      credentials: ref.optional().describe("n8n credential id or name → Switchyard credential id"),
      workflows: ref.optional().describe("n8n workflow id → Switchyard flow id (Execute Workflow nodes)"),
    }),
  )
  .output(imported)
  .mutation(async ({ ctx, input }) => {
    let result: ReturnType<typeof importN8nWorkflow>;
    try {
      result = importN8nWorkflow(input.workflow, {
        credentials: input.credentials,
        workflows: input.workflows,
      });
    } catch (err) {
      if (err instanceof N8nImportError)
        throw new HostError("invalid_request", err.message, {
          problems: (err.issues.length ? err.issues : [{ path: "", message: err.message }]).map((i) => ({
            path: ["body.workflow", i.path].filter(Boolean).join("."),
            message: i.message,
          })),
        });
      throw err;
    }
    const { name, description, ...file } = result.flow;
    const parsed = FlowDefinition.safeParse(file);
    // The importer builds flows from the schema's own shapes; a miss here is a bug worth its message.
    if (!parsed.success) throw new Error(`n8n import produced an invalid flow: ${parsed.error.message}`);
    const created = await ctx.host.flows.create({
      name: input.name ?? name.slice(0, 200),
      description: input.description ?? description,
      definition: parsed.data,
      createdBy: ctx.user.id,
    });
    const problems = [
      ...validateFlow(parsed.data, ctx.host.services.registry, ctx.host.services.flowChecks()),
      ...(await ctx.host.control.credentialProblems(parsed.data, created.id)),
    ];
    const flow = await ctx.host.flows.get(created.id);
    return {
      flow: flowView(flow!),
      version: 1,
      definition: parsed.data as unknown as Record<string, unknown>,
      report: result.report,
      problems: problems.map((p) => ({
        code: p.code,
        message: p.message,
        ...(p.nodeId ? { nodeId: p.nodeId } : {}),
        ...(p.field ? { field: p.field } : {}),
      })),
    };
  });
