import { z } from "zod";
import { liveSteps } from "../live-steps";
import { runChannels, runStatuses } from "@switchyard/contracts/runs";
import { editorProcedure, ownerProcedure, router, TRPCError, viewerProcedure } from "../trpc";

export const runStatus = z.enum(runStatuses);
export const runChannel = z.enum(runChannels);
export const runSort = z.enum(["newest", "oldest", "duration"]);

const oneOrMany = <T extends z.ZodType>(t: T) => z.union([t, z.array(t).max(10)]);
const runFilter = z.object({
  flowId: z.string().optional(),
  status: oneOrMany(runStatus).optional(),
  channel: oneOrMany(runChannel).optional(),
  /** ISO date-times: created at or after `from`, before `to`. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  search: z.string().trim().max(200).optional(),
});
const runId = z.object({ id: z.string().min(1) });

function notFound(what: string): never {
  throw new TRPCError({ code: "NOT_FOUND", message: `${what} not found` });
}

/** The repository refuses a bad cursor or a search with nothing to look for with a RangeError naming why. */
async function badInputAs400<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof RangeError) throw new TRPCError({ code: "BAD_REQUEST", message: e.message });
    throw e;
  }
}

/** Parses stored JSON for the trace view; a broken value is shown as text rather than failing the page. */
function parseStored(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

const retentionRouter = router({
  policy: viewerProcedure.query(({ ctx }) => ctx.host.services.retention.getPolicy()),
  setPolicy: ownerProcedure.input(z.object({ policy: z.unknown() })).mutation(async ({ ctx, input }) => {
    const parsed = ctx.host.services.retention.policySchema.safeParse(input.policy);
    if (!parsed.success)
      throw new TRPCError({ code: "BAD_REQUEST", message: "invalid retention policy", cause: parsed.error });
    return ctx.host.services.retention.setPolicy(parsed.data);
  }),
  /**
   * Database size (page_count × page_size + WAL), runs stored and growth, the storage budget and its
   * warning, whether the default policy applies, and what the last pruning run did.
   */
  storage: viewerProcedure.query(async ({ ctx }) => {
    const retention = ctx.host.services.retention;
    const last = retention.lastRun();
    return {
      ...(await retention.storage()),
      policySource: await retention.policySource(),
      lastRun: last
        ? {
            startedAt: last.startedAt,
            deletedRuns: last.prune.deletedRuns,
            overBudgetRuns: last.prune.overBudgetRuns,
            reclaim: last.reclaim.action,
            freedBytes: last.reclaim.before.totalBytes - last.reclaim.after.totalBytes,
            durationMs: Math.round(last.durationMs),
          }
        : null,
    };
  }),
  pruneNow: ownerProcedure.mutation(async ({ ctx }) => {
    const r = await ctx.host.services.retention.runOnce();
    return { deletedRuns: r.prune.deletedRuns, reclaim: r.reclaim.action, size: r.reclaim.after };
  }),
});

export const runRouter = router({
  list: viewerProcedure
    .input(
      runFilter
        .extend({
          sort: runSort.optional(),
          limit: z.number().int().min(1).max(500).optional(),
          cursor: z.string().max(200).optional(),
        })
        .optional(),
    )
    .query(({ ctx, input }) => {
      liveSteps(ctx.host.services.events); // from the first look at runs on, the live view knows steps in flight
      return badInputAs400(() => ctx.host.runs.list(input ?? {}));
    }),

  /**
   * Runs per status under the list's other filters; `live` > 0 means the list is worth refreshing.
   * With a search, `capped` means there are more matches than were counted.
   */
  counts: viewerProcedure
    .input(runFilter.optional())
    .query(({ ctx, input }) => badInputAs400(() => ctx.host.runs.counts(input ?? {}))),

  /** The trace: run, step summaries (every attempt), trigger payload and the flow version that ran. */
  get: viewerProcedure.input(runId).query(async ({ ctx, input }) => {
    liveSteps(ctx.host.services.events);
    const run = await ctx.host.runs.trace(input.id);
    if (!run) notFound(`run ${input.id}`);
    const version = await ctx.host.flows.getVersion(run.flowId, run.flowVersion);
    const { triggerPayload, output, ...rest } = run;
    return {
      ...rest,
      payload: parseStored(triggerPayload),
      output: parseStored(output),
      definition: version?.definition ?? null,
    };
  }),

  /** One step attempt in full. Input and output stay JSON text: the browser parses them lazily. */
  step: viewerProcedure
    .input(z.object({ runId: z.string().min(1), stepRowId: z.string().min(1) }))
    .query(async ({ ctx, input }) => {
      const step = await ctx.host.runs.step(input.runId, input.stepRowId);
      if (!step) notFound(`step ${input.stepRowId} of run ${input.runId}`);
      // A stack is for bugs ("internal"); for a user's mistake the message says it all.
      return { ...step, errorStack: step.errorCode === "internal" ? step.errorStack : null };
    }),

  cancel: editorProcedure.input(runId).mutation(({ ctx, input }) => ctx.host.control.cancelRun(input.id)),

  /** Runs the same flow version again with the same payload and channel; the new run links back. */
  rerun: editorProcedure.input(runId).mutation(async ({ ctx, input }) => {
    const run = await ctx.host.runs.trace(input.id);
    if (!run) notFound(`run ${input.id}`);
    return ctx.host.control.startRun(run.flowId, {
      payload: parseStored(run.triggerPayload),
      channel: run.channel as z.infer<typeof runChannel>,
      version: run.flowVersion,
      rerunOf: run.id,
    });
  }),

  /** A failed run again from its failed step: a new run linked to it that reuses the steps before. */
  retry: editorProcedure.input(runId).mutation(({ ctx, input }) => ctx.host.control.retryRun(input.id)),

  retention: retentionRouter,
});
