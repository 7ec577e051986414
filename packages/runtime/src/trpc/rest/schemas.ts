/**
 * Shapes the REST API answers with. The procedures build these with the mappers in `views.ts` and
 * declare them as their output; the OpenAPI document is generated from the same schemas (`meta.id`
 * makes one a named component).
 */
import { runChannels, runStatuses } from "@switchyard/contracts/runs";
import { z } from "zod";

const isoDate = z.string().describe("ISO 8601 timestamp (UTC)");
const id = (what: string) => z.string().min(1).max(200).describe(`${what} id`);

export const errorBody = z.object({
  error: z.object({
    code: z.string().describe("Stable machine-readable code, e.g. invalid_request, not_found"),
    message: z.string().describe("What went wrong, for people"),
    details: z
      .object({
        problems: z
          .array(
            z.object({
              path: z
                .string()
                .describe("Dotted path of the offending value, e.g. body.definition.nodes.2.config.url"),
              message: z.string(),
              code: z.string().optional().describe("Engine problem code for flow problems"),
              nodeId: z.string().optional(),
              edgeId: z.string().optional(),
            }),
          )
          .optional(),
      })
      .catchall(z.unknown())
      .optional(),
  }),
});

export const flowSummary = z
  .object({
    id: id("Flow"),
    name: z.string(),
    description: z.string(),
    active: z.boolean(),
    currentVersion: z.int().describe("Latest saved version"),
    activeVersion: z.int().nullable().describe("Version the triggers serve while active"),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: "FlowSummary" });

export const flowDefinitionOut = z
  .record(z.string(), z.unknown())
  .describe("The stored flow definition (nodes, edges, settings, notes); see GET /schema/flow.json");

export const flowDetail = z
  .object({ flow: flowSummary, version: z.int(), definition: flowDefinitionOut })
  .meta({ id: "FlowDetail" });

export const flowVersion = z
  .object({ version: z.int(), createdAt: isoDate, createdBy: z.string().nullable() })
  .meta({ id: "FlowVersion" });

const runError = z
  .object({ code: z.string().nullable(), message: z.string(), nodeId: z.string().nullable() })
  .nullable()
  .describe("Why the run failed; null unless it failed or timed out");

export const runSummary = z
  .object({
    id: id("Run"),
    flowId: id("Flow"),
    flowName: z.string(),
    flowVersion: z.int(),
    status: z.enum(runStatuses),
    channel: z.enum(runChannels).describe("What started the run"),
    createdAt: isoDate,
    startedAt: isoDate.nullable(),
    endedAt: isoDate.nullable(),
    durationMs: z.int().nullable(),
    error: runError,
  })
  .meta({ id: "RunSummary" });

export const step = z
  .object({
    stepId: z.string().describe("`<nodeId>#<visit>`"),
    nodeId: z.string(),
    visit: z.int(),
    attempt: z.int(),
    status: z.string().describe("succeeded | failed | skipped | waiting | …"),
    port: z.string().nullable().describe("Output port the step emitted on"),
    reason: z.string().nullable(),
    input: z.unknown().describe("Items the node received (bounded; see `truncated`)"),
    output: z.unknown().describe("Items per output port"),
    error: z.object({ code: z.string().nullable(), message: z.string() }).nullable(),
    logs: z.unknown(),
    truncated: z.boolean(),
    startedAt: isoDate.nullable(),
    endedAt: isoDate.nullable(),
    durationMs: z.int().nullable(),
  })
  .meta({ id: "Step" });

export const runDetail = runSummary
  .extend({
    attempts: z.int(),
    rerunOf: z.string().nullable(),
    payload: z.unknown().describe("The trigger payload the run started with"),
    output: z.unknown().describe("The run's result (last node or webhook.respond), null while running"),
    steps: z.array(step).describe("Checkpointed steps in order, retried attempts included"),
  })
  .meta({ id: "RunDetail" });

export const runAccepted = z
  .object({
    runId: id("Run"),
    flowVersion: z.int(),
    status: z.enum(runStatuses).describe("Status when the answer was sent (not finished yet)"),
  })
  .meta({ id: "RunAccepted" });

export const memoryItem = z
  .object({
    id: z.string(),
    namespace: z.string(),
    kind: z.enum(["memory", "transcript", "person", "profile"]),
    key: z.string(),
    content: z.string(),
    thread: z.string().nullable(),
    tags: z.array(z.string()),
    source: z.string().nullable(),
    embedderId: z.string().nullable(),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: "MemoryItem" });
