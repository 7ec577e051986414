/**
 * `start_flow`: run another flow with some input and wait for its result. It runs as a sub-flow of the
 * current run and inherits the run's channel, so its own agent steps get the same ceiling as this one.
 */
import { capChars } from "@switchyard/contracts/cap";
import { z } from "zod";
import { type ActionCapabilities, toolJson } from "./actions";
import type { Tool } from "./tool";

const input = z.strictObject({
  flow_id: z.string().min(1).max(200).describe("Id of the flow to start"),
  input: z
    .union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).max(100)])
    .default({})
    .describe("JSON object (or a list of objects) the flow receives as its items"),
});

export function createStartFlowTool(cap: ActionCapabilities, maxChars = 20_000): Tool {
  return {
    name: "start_flow",
    description:
      "Start another flow with the given input, wait for it to finish, and return its output items.",
    permission: "write",
    inputSchema: input,
    async execute(args, ctx) {
      const a = input.parse(args);
      const items = Array.isArray(a.input) ? a.input : [a.input];
      const out = await cap.startFlow(a.flow_id, items, ctx.signal);
      return `Flow ${a.flow_id} finished.\n${capChars(toolJson(out), maxChars).text}`;
    },
  };
}
