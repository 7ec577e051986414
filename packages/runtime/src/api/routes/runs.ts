import { z } from "zod";
import type { Host } from "../../host";
import { ApiError } from "../errors";
import { idParams, queryBool, queryInt } from "../params";
import { defineRoute, named } from "../route";
import { listRuns, waitForTerminal } from "../run-queries";
import { runAccepted, runChannels, runDetail, runStatuses, runSummary } from "../schemas";
import { runDetailView, runView } from "../views";

const tag = "Runs";

const isoQuery = z.iso
  .datetime({ offset: true, error: "expected an ISO 8601 date-time, e.g. 2025-01-31T12:00:00Z" })
  .transform((s) => new Date(s));

async function runDetailOf(host: Host, id: string) {
  const run = await host.runs.get(id);
  if (!run) throw new ApiError("not_found", `run ${id} not found`);
  return runDetailView(run);
}

export const defaultWaitMs = 30_000;

export const runRoutes = [
  defineRoute({
    method: "POST",
    path: "/flows/{id}/runs",
    operationId: "runFlow",
    audit: "run.started",
    tag: "Flows",
    summary: "Run a flow now",
    description:
      "The request body (any JSON; empty means {}) is the trigger payload. The run is durable before the answer. " +
      "With `wait=true` the answer waits up to `timeoutMs` for the run to finish: 200 with the finished run, or 202 if it is still going.",
    access: "write",
    params: idParams,
    query: z.object({
      wait: queryBool.optional().describe("Wait for the run to finish"),
      timeoutMs: queryInt(1, 600_000).optional().describe(`How long to wait (default ${defaultWaitMs} ms)`),
      version: queryInt(1, 1_000_000).optional().describe("Run this saved version instead of the latest"),
    }),
    body: z.unknown().describe("Trigger payload"),
    bodyRequired: false,
    responses: { 200: runDetail, 202: runAccepted },
    async handler({ host, params, query, body, signal }) {
      const { runId, flowVersion } = await host.control.startRun(params.id, {
        payload: body ?? {},
        channel: "api",
        version: query.version,
      });
      if (query.wait && (await waitForTerminal(host, runId, query.timeoutMs ?? defaultWaitMs, signal))) {
        return { status: 200 as const, body: await runDetailOf(host, runId) };
      }
      const run = await host.runs.get(runId);
      const status = run?.status ?? "queued";
      return {
        status: 202 as const,
        body: { runId, flowVersion, status: status as (typeof runStatuses)[number] },
      };
    },
  }),

  defineRoute({
    method: "GET",
    path: "/runs",
    operationId: "listRuns",
    tag,
    summary: "List runs",
    description:
      "Newest first. Pass `nextCursor` back as `cursor` for the next page; it is null on the last page.",
    access: "read",
    query: z.object({
      flowId: z.string().min(1).optional().describe("Only runs of this flow"),
      status: z.enum(runStatuses).optional(),
      channel: z.enum(runChannels).optional(),
      since: isoQuery.optional().describe("Created at or after this time"),
      until: isoQuery.optional().describe("Created before this time"),
      limit: queryInt(1, 500).optional().describe("Page size (default 50)"),
      cursor: z.string().min(1).optional().describe("`nextCursor` of the previous page"),
    }),
    responses: {
      200: named("RunList", z.object({ runs: z.array(runSummary), nextCursor: z.string().nullable() })),
    },
    async handler({ host, query }) {
      const page = await listRuns(host, { ...query, limit: query.limit ?? 50 });
      return { status: 200 as const, body: { runs: page.runs.map(runView), nextCursor: page.nextCursor } };
    },
  }),

  defineRoute({
    method: "GET",
    path: "/runs/{id}",
    operationId: "getRun",
    tag,
    summary: "Get a run with its steps",
    access: "read",
    params: idParams,
    responses: { 200: runDetail },
    async handler({ host, params }) {
      return { status: 200 as const, body: await runDetailOf(host, params.id) };
    },
  }),

  defineRoute({
    method: "POST",
    path: "/runs/{id}/cancel",
    operationId: "cancelRun",
    audit: "run.cancelled",
    tag,
    summary: "Cancel a run",
    description:
      "A queued or waiting run is cancelled at once; a running one is signalled and stops at its next step boundary. 409 when it already finished.",
    access: "write",
    params: idParams,
    responses: {
      200: named(
        "CancelResult",
        z.object({
          runId: z.string(),
          result: z
            .enum(["cancelled", "signalled"])
            .describe("cancelled: done; signalled: the running run is being stopped"),
        }),
      ),
    },
    async handler({ host, params }) {
      const { result } = host.control.cancelRun(params.id);
      if (result === "already_finished") throw new ApiError("conflict", `run ${params.id} already finished`);
      return { status: 200 as const, body: { runId: params.id, result } };
    },
  }),

  defineRoute({
    method: "POST",
    path: "/runs/{id}/rerun",
    operationId: "rerunRun",
    audit: "run.rerun",
    tag,
    summary: "Run again with the same payload, flow version and channel",
    access: "write",
    params: idParams,
    responses: { 202: named("RerunAccepted", runAccepted.extend({ rerunOf: z.string() })) },
    async handler({ host, params }) {
      const run = await host.db.prisma.run.findUnique({
        where: { id: params.id },
        select: { flowId: true, flowVersion: true, triggerPayload: true, channel: true },
      });
      if (!run) throw new ApiError("not_found", `run ${params.id} not found`);
      const started = await host.control.startRun(run.flowId, {
        payload: JSON.parse(run.triggerPayload),
        // The original channel, not "api": a rerun must not lift a webhook run to a higher agent ceiling.
        channel: run.channel as (typeof runChannels)[number],
        version: run.flowVersion,
        rerunOf: params.id,
      });
      return {
        status: 202 as const,
        body: {
          runId: started.runId,
          flowVersion: started.flowVersion,
          status: "queued" as const,
          rerunOf: params.id,
        },
      };
    },
  }),
];
