import type { NodeContext } from "@switchyard/engine";
import { z } from "zod";
import { defineNode } from "../define";
import { NodeError, notConfigured } from "../errors";

/**
 * How deep the current run is in a chain of sub-flow calls. Not in the engine's NodeContext
 * yet: the host should set `callDepth` on ctx (0 for a top-level run) and accept `depth` in
 * SubflowCaller.call's options; until then a run counts as top level.
 */
export type CallDepthContext = NodeContext & { callDepth?: number };

/** Runs another flow with this step's items and outputs what it returns. */
export const callNode = defineNode({
  type: "flow.call",
  typeVersion: 1,
  title: "Call flow",
  description: "Runs another flow with these items and continues with its result.",
  category: "flow",
  icon: "workflow",
  ports: ["main"],
  config: z.object({
    flowId: z.string().min(1).describe("Flow to run"),
    maxDepth: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(5)
      .describe("Deepest chain of nested calls allowed (stops a flow calling itself forever)"),
  }),
  example: { flowId: "flow-enrich-customer", maxDepth: 3 },
  async execute({ config, input, ctx }) {
    if (!ctx.flows) throw notConfigured("Sub-flow calls", ctx.nodeId);
    const depth = (ctx as CallDepthContext).callDepth ?? 0;
    if (depth >= config.maxDepth) {
      throw new NodeError(
        "policy_denied",
        `sub-flow depth limit ${config.maxDepth} reached calling "${config.flowId}"`,
        {
          nodeId: ctx.nodeId,
          retryable: false,
        },
      );
    }
    const opts = { signal: ctx.signal, depth: depth + 1 };
    return { items: await ctx.flows.call(config.flowId, input, opts) };
  },
});
