import { z } from "zod";
import { defineNode } from "../define";
import { isTruthy } from "./truthy";

/** Most cases a switch may have; ports are declared up front, so the count is bounded. */
export const MAX_SWITCH_CASES = 10;
const CASE_PORTS = Array.from({ length: MAX_SWITCH_CASES }, (_, i) => `case${i + 1}`);

/** Routes each item to the first case whose condition holds (port caseN), else `default`. */
export const switchNode = defineNode({
  type: "logic.switch",
  typeVersion: 1,
  pure: true,
  title: "Switch",
  description: "Sends each item to the first matching case, or to default.",
  category: "logic",
  icon: "signpost",
  ports: [...CASE_PORTS, "default"],
  runMode: "perItem",
  config: z.object({
    cases: z
      .array(
        z.object({
          name: z.string().min(1).max(60).describe("Label shown on the case's port"),
          condition: z.unknown().describe("Condition evaluated per item, e.g. =item.priority = 'high'"),
        }),
      )
      .min(1)
      .max(MAX_SWITCH_CASES)
      .describe("Cases in order; the first whose condition holds wins; its port is case1, case2, …"),
  }),
  example: {
    cases: [
      { name: "urgent", condition: "=item.priority = 'high'" },
      { name: "normal", condition: "=item.priority = 'normal'" },
    ],
  },
  async execute({ config, input }) {
    const hit = config.cases.findIndex((c) => isTruthy(c.condition));
    return { port: hit === -1 ? "default" : `case${hit + 1}`, items: input };
  },
});
