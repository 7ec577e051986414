import {
  type NodeRegistry,
  parseFlow,
  type Problem,
  type ValidateOptions,
  validateFlow,
} from "@switchyard/engine";
import { errorTrigger } from "@switchyard/nodes";
import type { Host } from "../../host";
import { pathsOf } from "../../runs/expression-sample";
import { z } from "zod";
import { editorProcedure, router, TRPCError, viewerProcedure } from "../trpc";

const flowId = z.object({ id: z.string().min(1) });
const definition = z.record(z.string(), z.unknown());

/**
 * Every problem the engine finds, against the host's node registry; saves keep drafts with problems,
 * activation refuses them.
 */
async function problemsOf(
  ctx: {
    host: {
      services: { registry: NodeRegistry; flowChecks(): ValidateOptions };
      control: { credentialProblems(d: unknown, flowId?: string): Promise<Problem[]> };
    };
  },
  definition: unknown,
  flowId?: string,
) {
  // Plus what needs the vault: a webhook credential whose type does not fit the auth mode (#18).
  return [
    ...validateFlow(definition, ctx.host.services.registry, ctx.host.services.flowChecks()),
    ...(await ctx.host.control.credentialProblems(definition, flowId)),
  ];
}

/** Longest config value the preview evaluates: it travels in a GET query string, which servers cap. */
export const MAX_PREVIEW_SOURCE = 4000;

async function sampleFor(ctx: { host: Host }, id: string, nodeId: string) {
  // Parsed, not validated: a draft saved with problems (the usual state while editing) still gets help.
  const version = await ctx.host.flows.getVersion(id);
  if (!version) throw new TRPCError({ code: "NOT_FOUND", message: `flow ${id} not found` });
  const parsed = parseFlow(version.definition);
  if (!parsed.ok)
    throw new TRPCError({ code: "BAD_REQUEST", message: `version ${version.version} is not a flow` });
  if (!parsed.flow.nodes.some((n) => n.id === nodeId))
    throw new TRPCError({
      code: "BAD_REQUEST",
      message: `node "${nodeId}" is not in the saved flow (save it first)`,
    });
  return { sample: await ctx.host.services.expressionSample(id, parsed.flow, nodeId) };
}

export const flowRouter = router({
  list: viewerProcedure
    .input(z.object({ search: z.string().max(200).optional() }).optional())
    .query(({ ctx, input }) => ctx.host.flows.list({ search: input?.search })),

  get: viewerProcedure
    .input(flowId.extend({ version: z.number().int().positive().optional() }))
    .query(async ({ ctx, input }) => {
      const flow = await ctx.host.flows.get(input.id);
      const version = await ctx.host.flows.getVersion(input.id, input.version);
      if (!flow || !version)
        throw new TRPCError({ code: "NOT_FOUND", message: `flow ${input.id} not found` });
      return { flow, version };
    }),

  create: editorProcedure
    .input(
      z.object({
        name: z.string().trim().min(1).max(200),
        description: z.string().max(2000).optional(),
        definition,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const created = await ctx.host.flows.create({ ...input, createdBy: ctx.user.id });
      await ctx.host.auth.audit(ctx.user.id, "flow.created", created.id, { name: input.name });
      return { ...created, problems: await problemsOf(ctx, input.definition) };
    }),

  /**
   * Problems of a definition as the engine sees them (a mutation only so that large flows travel in a POST
   * body instead of the URL; it writes nothing).
   */
  validate: viewerProcedure
    .input(z.object({ definition }))
    .mutation(async ({ ctx, input }) => ({ problems: await problemsOf(ctx, input.definition) })),

  save: editorProcedure.input(flowId.extend({ definition })).mutation(async ({ ctx, input }) => {
    const saved = await ctx.host.flows.saveVersion(input.id, input.definition, ctx.user.id);
    await ctx.host.auth.audit(ctx.user.id, "flow.saved", input.id, { version: saved.version });
    // An active flow serves the new version from the next event on — no restart, no stale trigger.
    await ctx.host.control.afterSave(input.id);
    return { ...saved, problems: await problemsOf(ctx, input.definition, input.id) };
  }),

  rename: editorProcedure
    .input(flowId.extend({ name: z.string().trim().min(1).max(200) }))
    .mutation(async ({ ctx, input }) => {
      const renamed = await ctx.host.flows.rename(input.id, input.name);
      await ctx.host.auth.audit(ctx.user.id, "flow.renamed", input.id, { name: input.name });
      return renamed;
    }),

  versions: viewerProcedure.input(flowId).query(({ ctx, input }) => ctx.host.flows.listVersions(input.id)),

  setActive: editorProcedure
    .input(flowId.extend({ active: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      if (input.active) {
        const version = await ctx.host.flows.getVersion(input.id);
        if (!version) throw new TRPCError({ code: "NOT_FOUND", message: `flow ${input.id} not found` });
        const problems = await problemsOf(ctx, version.definition, input.id);
        if (problems.length) {
          const list = problems.map((p) => `- ${p.message}`).join("\n");
          throw new TRPCError({
            code: "BAD_REQUEST",
            message: `cannot activate: version ${version.version} has ${problems.length} problem${problems.length > 1 ? "s" : ""}:\n${list}`,
            cause: Object.assign(new Error("flow has problems"), { problems }),
          });
        }
      }
      const flow = await ctx.host.control.setActive(input.id, input.active);
      await ctx.host.auth.audit(ctx.user.id, input.active ? "flow.activated" : "flow.deactivated", input.id, {
        version: flow?.activeVersion ?? null,
      });
      return flow;
    }),

  /** Runs the flow now (its latest saved version unless one is named) with a sample payload. */
  run: editorProcedure
    .input(
      flowId.extend({ payload: z.unknown().optional(), version: z.number().int().positive().optional() }),
    )
    .mutation(({ ctx, input }) =>
      ctx.host.control.startRun(input.id, {
        payload: input.payload ?? {},
        channel: "manual",
        version: input.version,
      }),
    ),

  /**
   * Runs part of the latest saved version: `node` runs only that node on its pinned or last-run input,
   * `until` runs it and what it depends on. Channel manual, like Run.
   */
  runStep: editorProcedure
    .input(
      flowId.extend({
        nodeId: z.string().min(1).max(200),
        mode: z.enum(["node", "until"]),
        payload: z.unknown().optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.host.control.startStepRun(input.id, input.mode, input.nodeId, input.payload ?? {}),
    ),

  /**
   * Expression help for one node of the latest saved version: where its sample data comes from and the
   * field paths in it (the data itself stays on the server).
   */
  expressionHelp: viewerProcedure
    .input(flowId.extend({ nodeId: z.string().min(1).max(200) }))
    .query(async ({ ctx, input }) => {
      const { sample } = await sampleFor(ctx, input.id, input.nodeId);
      return { source: sample.source, paths: pathsOf(sample.scope) };
    }),

  /** Evaluates one config value over that sample with the engine, as a run would; errors are answers. */
  previewExpression: viewerProcedure
    .input(
      flowId.extend({
        nodeId: z.string().min(1).max(200),
        /** The config field (dotted path) the value is in: errors name it as a run's would. */
        field: z.string().min(1).max(200).optional(),
        value: z.string().max(MAX_PREVIEW_SOURCE),
      }),
    )
    .query(async ({ ctx, input }) => {
      const { sample } = await sampleFor(ctx, input.id, input.nodeId);
      const preview = await ctx.host.services.previewExpression(input.value, sample, {
        flowId: input.id,
        nodeId: input.nodeId,
        field: input.field ?? "value",
      });
      return { source: sample.source, ...preview };
    }),

  /** Flows a failure can start (their current version has an Error trigger): the settings' picker. */
  errorFlowChoices: viewerProcedure.query(async ({ ctx }) => {
    const flows = await ctx.host.flows.list();
    const choices: { id: string; name: string }[] = [];
    for (const f of flows) {
      const compiled = await ctx.host.services.cache.get(f.id, f.currentVersion).catch(() => undefined);
      if (compiled?.flow.nodes.some((n) => n.type === errorTrigger.type))
        choices.push({ id: f.id, name: f.name });
    }
    return choices;
  }),

  /** Waits (up to 2 min) for one request on /hooks-test/<path> and returns its payload, or null. */
  listenTest: editorProcedure
    .input(flowId.extend({ timeoutMs: z.number().int().min(1000).max(120_000).optional() }))
    .mutation(({ ctx, input }) => ctx.host.control.listenForTestEvent(input.id, input.timeoutMs)),

  /** Health of the flow's trigger while active (listening | error, last event, last error). */
  triggerHealth: viewerProcedure
    .input(flowId)
    .query(({ ctx, input }) => ctx.host.services.triggers.health(input.id) ?? null),

  delete: editorProcedure.input(flowId).mutation(async ({ ctx, input }) => {
    const flow = await ctx.host.flows.get(input.id);
    if (!flow) throw new TRPCError({ code: "NOT_FOUND", message: `flow ${input.id} not found` });
    await ctx.host.control.setActive(input.id, false);
    await ctx.host.flows.delete(input.id);
    await ctx.host.auth.audit(ctx.user.id, "flow.deleted", input.id, { name: flow.name });
    return { id: input.id };
  }),
});
