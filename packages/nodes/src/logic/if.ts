import { z } from "zod";
import { defineNode } from "../define";
import { isTruthy } from "./truthy";

/** Routes each item to `true` or `false` by its condition. */
export const ifNode = defineNode({
  type: "logic.if",
  typeVersion: 1,
  pure: true,
  title: "If",
  description: "Sends each item to the true or the false branch.",
  category: "logic",
  icon: "split",
  ports: ["true", "false"],
  runMode: "perItem",
  config: z.object({
    condition: z
      .unknown()
      .describe('Condition evaluated per item, e.g. =item.total > 100 ("false", "0" and "" count as false)'),
  }),
  example: { condition: "=item.total > 100" },
  async execute({ config, input }) {
    return { port: isTruthy(config.condition) ? "true" : "false", items: input };
  },
});
