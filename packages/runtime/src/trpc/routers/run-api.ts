import { z } from "zod";
import { HostError } from "../../errors/codes";
import type { Host } from "../../host";
import { idParams, queryInt } from "../rest/params";
import { listRuns, waitForTerminal } from "../rest/run-queries";
import { runChannels, runStatuses } from "@switchyard/contracts/runs";
import { runAccepted, runDetail, runSummary } from "../rest/schemas";
import { runDetailView, runView } from "../rest/views";
import { auditedEditorProcedure, router, viewerProcedure } from "../trpc";

const tags = ["Runs"];

export const defaultWaitMs = 30_000;

const isoQuery = z.iso
  .datetime({ offset: true, error: "expected an ISO 8601 date-time, e.g. 2025-01-31T12:00:00Z" })
  .transform((s) => new Date(s));

async function runDetailOf(host: Host, id: string) {
  const run = await host.runs.get(id);
  if (!run) throw new HostError("not_found", `run ${id} not found`);
  return runDetailView(run);
}

const runList = z
  .object({ runs: z.array(runSummary), nextCursor: z.string().nullable() })
  .meta({ id: "RunList" });
const cancelResult = z
  .object({
    runId: z.string(),
    result: z
      .enum(["cancelled", "signalled"])
      .describe("cancelled: done; signalled: the running run is being stopped"),
  })
  .meta({ id: "CancelResult" });
const rerunAccepted = runAccepted.extend({ rerunOf: z.string() }).meta({ id: "RerunAccepted" });
const retryAccepted = runAccepted.extend({ retryOf: z.string() }).meta({ id: "RetryAccepted" });

/** `/api/v1/runs…` and `POST /flows/{id}/runs`: the REST API's run procedures (the UI's are in `run.ts`). */
export const runApiRouter = router({
  start: auditedEditorProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/flows/{id}/runs",
        operationId: "runFlow",
        tags: ["Flows"],
        summary: "Run a flow now",
        description:
          "`payload` (any JSON; default {}) is the trigger payload. The run is durable before the answer: 202 with the run's id. " +
          "With `wait: true` the answer waits up to `timeoutMs` for the run to finish: 200 with the finished run, or 202 if it is still going.",
        successDescription:
          "200: the finished run (wait: true); 202: the run was accepted and is still going",
      },
      rest: { status: (out) => ((out as { steps?: unknown }).steps ? 200 : 202), audit: "run.started" },
    })
    .input(
      idParams.extend({
        payload: z.unknown().optional().describe("Trigger payload (default {})"),
        wait: z.boolean().optional().describe("Wait for the run to finish"),
        timeoutMs: z
          .int()
          .min(1)
          .max(600_000)
          .optional()
          .describe(`How long to wait (default ${defaultWaitMs} ms)`),
        version: z
          .int()
          .min(1)
          .max(1_000_000)
          .optional()
          .describe("Run this saved version instead of the latest"),
      }),
    )
    .output(z.union([runDetail, runAccepted]))
    .mutation(async ({ ctx, input }) => {
      const { runId, flowVersion } = await ctx.host.control.startRun(input.id, {
        payload: input.payload ?? {},
        channel: "api",
        version: input.version,
      });
      const signal = ctx.signal ?? new AbortController().signal;
      if (input.wait && (await waitForTerminal(ctx.host, runId, input.timeoutMs ?? defaultWaitMs, signal)))
        return runDetailOf(ctx.host, runId);
      const run = await ctx.host.runs.get(runId);
      return { runId, flowVersion, status: (run?.status ?? "queued") as (typeof runStatuses)[number] };
    }),

  list: viewerProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/runs",
        operationId: "listRuns",
        tags,
        summary: "List runs",
        description:
          "Newest first. Pass `nextCursor` back as `cursor` for the next page; it is null on the last page.",
      },
    })
    .input(
      z.strictObject({
        flowId: z.string().min(1).optional().describe("Only runs of this flow"),
        status: z.enum(runStatuses).optional(),
        channel: z.enum(runChannels).optional(),
        since: isoQuery.optional().describe("Created at or after this time"),
        until: isoQuery.optional().describe("Created before this time"),
        limit: queryInt(1, 500).optional().describe("Page size (default 50)"),
        cursor: z.string().min(1).optional().describe("`nextCursor` of the previous page"),
      }),
    )
    .output(runList)
    .query(async ({ ctx, input }) => {
      const page = await listRuns(ctx.host, { ...input, limit: input.limit ?? 50 });
      return { runs: page.runs.map(runView), nextCursor: page.nextCursor };
    }),

  get: viewerProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/runs/{id}",
        operationId: "getRun",
        tags,
        summary: "Get a run with its steps",
      },
    })
    .input(idParams)
    .output(runDetail)
    .query(({ ctx, input }) => runDetailOf(ctx.host, input.id)),

  cancel: auditedEditorProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/runs/{id}/cancel",
        operationId: "cancelRun",
        tags,
        summary: "Cancel a run",
        description:
          "A queued or waiting run is cancelled at once; a running one is signalled and stops at its next step boundary. 409 when it already finished.",
      },
      rest: { audit: "run.cancelled" },
    })
    .input(idParams)
    .output(cancelResult)
    .mutation(async ({ ctx, input }) => {
      const { result } = await ctx.host.control.cancelRun(input.id);
      if (result === "already_finished") throw new HostError("conflict", `run ${input.id} already finished`);
      return { runId: input.id, result };
    }),

  rerun: auditedEditorProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/runs/{id}/rerun",
        operationId: "rerunRun",
        tags,
        summary: "Run again with the same payload, flow version and channel",
      },
      rest: { status: 202, audit: "run.rerun" },
    })
    .input(idParams)
    .output(rerunAccepted)
    .mutation(async ({ ctx, input }) => {
      const run = await ctx.host.db.prisma.run.findUnique({
        where: { id: input.id },
        select: { flowId: true, flowVersion: true, triggerPayload: true, channel: true },
      });
      if (!run) throw new HostError("not_found", `run ${input.id} not found`);
      const started = await ctx.host.control.startRun(run.flowId, {
        payload: JSON.parse(run.triggerPayload),
        // The original channel, not "api": a rerun must not lift a webhook run to a higher agent ceiling.
        channel: run.channel as (typeof runChannels)[number],
        version: run.flowVersion,
        rerunOf: input.id,
      });
      return {
        runId: started.runId,
        flowVersion: started.flowVersion,
        status: "queued" as const,
        rerunOf: input.id,
      };
    }),

  retry: auditedEditorProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/runs/{id}/retry",
        operationId: "retryRun",
        tags,
        summary: "Retry a failed run from its failed step",
        description:
          "A new run (same flow version, payload and channel) linked to the failed one: the steps that succeeded are reused, not executed again, and the run continues from the failed step. 400 when the run did not fail at a step.",
      },
      rest: { status: 202, audit: "run.retried" },
    })
    .input(idParams)
    .output(retryAccepted)
    .mutation(async ({ ctx, input }) => {
      const started = await ctx.host.control.retryRun(input.id);
      return {
        runId: started.runId,
        flowVersion: started.flowVersion,
        status: "queued" as const,
        retryOf: input.id,
      };
    }),
});
