import { z } from "zod";
import { defineNode } from "../define";
import { NodeError } from "../errors";

/** Ends this branch: quietly with a message, or by failing the run with that message. */
export const stopNode = defineNode({
  type: "flow.stop",
  typeVersion: 1,
  pure: true,
  title: "Stop",
  description: "Ends the branch, successfully or with an error.",
  category: "flow",
  icon: "octagon",
  ports: [],
  config: z.object({
    outcome: z.enum(["success", "error"]).default("success").describe("End quietly or fail the run"),
    message: z.string().min(1).max(2000).describe("Why the run stops; shown in the run trace"),
  }),
  example: { outcome: "error", message: "Order has no customer" },
  async execute({ config, ctx }) {
    if (config.outcome === "error") {
      // A deliberate stop: retrying would reach the same node again.
      throw new NodeError("input_invalid", config.message, { nodeId: ctx.nodeId, retryable: false });
    }
    ctx.log.info(config.message);
    return { outputs: {} };
  },
});
