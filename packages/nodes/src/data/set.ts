import { z } from "zod";
import { defineNode } from "../define";
import { cloneJson, setPath } from "../util/path";

/** Sets fields on each item; values arrive already resolved (expressions are per item). */
export const setNode = defineNode({
  type: "data.set",
  typeVersion: 1,
  pure: true,
  title: "Set fields",
  description: "Adds or replaces fields on each item.",
  category: "data",
  icon: "pencil",
  ports: ["main"],
  runMode: "perItem",
  config: z.object({
    fields: z
      .array(
        z.object({
          name: z.string().min(1).max(200).describe("Field to set; dots reach into objects (customer.name)"),
          value: z.unknown().describe("Value, usually an expression such as =item.total * 2"),
        }),
      )
      .min(1)
      .describe("Fields to set, in order"),
    keepOnlySet: z.boolean().default(false).describe("Drop every field that is not set here"),
  }),
  example: {
    fields: [
      { name: "customer.name", value: "Ada" },
      { name: "total", value: 42 },
    ],
    keepOnlySet: false,
  },
  async execute({ config, input, ctx }) {
    return {
      items: input.map((item) => {
        const json = config.keepOnlySet ? {} : cloneJson(item.json);
        for (const f of config.fields) setPath(json, f.name, f.value ?? null, ctx.nodeId);
        return item.binary ? { json, binary: item.binary } : { json };
      }),
    };
  },
});
