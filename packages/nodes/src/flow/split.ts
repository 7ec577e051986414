import type { Item } from "@switchyard/engine";
import { z } from "zod";
import { defineNode } from "../define";
import { NodeError } from "../errors";
import { getPath, setPath } from "../util/path";
import { isPlainObject } from "../util/items";

/** One item per element of an array field. */
export const splitNode = defineNode({
  type: "flow.split",
  typeVersion: 1,
  pure: true,
  title: "Split out",
  description: "Turns an array field into one item per element.",
  category: "flow",
  icon: "list",
  ports: ["main"],
  config: z.object({
    path: z.string().min(1).max(200).describe("Array field to split; dots reach into objects (order.lines)"),
    field: z
      .string()
      .min(1)
      .max(200)
      .default("value")
      .describe("Field that holds an element when it is not an object"),
    includeParent: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("Also copy the original item's JSON into this field of every new item"),
  }),
  example: { path: "order.lines", field: "value", includeParent: "order" },
  async execute({ config, input, ctx }) {
    const out: Item[] = [];
    input.forEach((item, index) => {
      const list = getPath(item.json, config.path, ctx.nodeId);
      if (!Array.isArray(list)) {
        const got = list === undefined ? "missing" : list === null ? "null" : `a ${typeof list}`;
        throw new NodeError("input_invalid", `item ${index}: "${config.path}" is ${got}, not an array`, {
          nodeId: ctx.nodeId,
          retryable: false,
        });
      }
      for (const el of list) {
        const json: Record<string, unknown> = isPlainObject(el)
          ? { ...el }
          : setPath({}, config.field, el, ctx.nodeId);
        if (config.includeParent) setPath(json, config.includeParent, item.json, ctx.nodeId);
        out.push({ json });
      }
    });
    return { items: out };
  },
});
