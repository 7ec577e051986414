import { z } from "zod";
import { defineNode } from "../define";
import { NodeError } from "../errors";
import { valueToItems } from "../util/items";

/** Reshapes all items at once with one JSONata expression over `items`. */
export const transformNode = defineNode({
  type: "data.transform",
  typeVersion: 1,
  pure: true,
  // Its own language, not a config expression: the executor must not evaluate { } inside it.
  rawFields: ["expression"],
  title: "Transform",
  description: "Reshapes all items with a JSONata expression; its result becomes the new items.",
  category: "data",
  icon: "shuffle",
  ports: ["main"],
  config: z.object({
    expression: z
      .string()
      .min(1)
      .max(20_000)
      .describe("JSONata over `items` (the input JSON list), without a leading =; e.g. items[total > 10]"),
  }),
  example: { expression: 'items.{ "name": customer.name, "total": $sum(lines.price) }' },
  async execute({ config, input, ctx }) {
    let value: unknown;
    try {
      value = await ctx.expressions.evaluate(config.expression, { items: input.map((i) => i.json) });
    } catch (err) {
      // The evaluator does not know the node: a bound it hit is named here, like config expressions are.
      if (err instanceof NodeError && err.code === "expression_limit" && !err.nodeId)
        throw new NodeError("expression_limit", `node "${ctx.nodeId}" field "expression": ${err.message}`, {
          nodeId: ctx.nodeId,
          field: "expression",
          cause: err,
        });
      if (err instanceof NodeError) throw err;
      throw new NodeError("expression_failed", `expression failed: ${(err as Error).message}`, {
        nodeId: ctx.nodeId,
        retryable: false,
        cause: err,
      });
    }
    return { items: valueToItems(value, "the expression", "expression_failed", ctx.nodeId) };
  },
});
