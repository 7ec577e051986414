import type { Item } from "@switchyard/engine";
import { z } from "zod";
import { defineNode } from "../define";
import { NodeError } from "../errors";
import { getPath } from "../util/path";

/** Joins on the key's JSON form, so 1 and "1" stay different and objects compare by value. */
const keyOf = (item: Item, path: string, nodeId: string) =>
  JSON.stringify(getPath(item.json, path, nodeId) ?? null);

export const mergeConfig = z
  .object({
    mode: z
      .enum(["append", "byKey", "waitAll"])
      .default("append")
      .describe(
        "append: a's items then b's; byKey: join a and b on a field; waitAll: one item {a: [...], b: [...]}",
      ),
    key: z.string().min(1).max(200).optional().describe("Field to join on (byKey); dots reach into objects"),
    join: z
      .enum(["inner", "left"])
      .default("inner")
      .describe("byKey: inner keeps matches only; left keeps every a item"),
  })
  .refine((c) => c.mode !== "byKey" || c.key !== undefined, { message: "byKey needs a key", path: ["key"] });

/** Combines the items arriving on inputs a and b. */
export const mergeNode = defineNode({
  type: "flow.merge",
  typeVersion: 1,
  pure: true,
  title: "Merge",
  description: "Combines the items of two branches.",
  category: "flow",
  icon: "merge",
  ports: ["main"],
  inputs: ["a", "b"],
  config: mergeConfig,
  example: { mode: "byKey", key: "id", join: "left" },
  async execute({ config, input, inputsByPort, ctx }) {
    if (config.mode === "append") {
      return { items: inputsByPort ? [...(inputsByPort.a ?? []), ...(inputsByPort.b ?? [])] : input };
    }
    if (!inputsByPort) {
      throw new NodeError(
        "not_configured",
        `merge mode ${config.mode} needs the items of each input (inputsByPort)`,
        {
          nodeId: ctx.nodeId,
          retryable: false,
        },
      );
    }
    const a = inputsByPort.a ?? [];
    const b = inputsByPort.b ?? [];
    if (config.mode === "waitAll") {
      return { items: [{ json: { a: a.map((i) => i.json), b: b.map((i) => i.json) } }] };
    }
    const key = config.key as string;
    const byKey = new Map<string, Item[]>();
    for (const item of b) {
      const k = keyOf(item, key, ctx.nodeId);
      byKey.set(k, [...(byKey.get(k) ?? []), item]);
    }
    const out: Item[] = [];
    for (const left of a) {
      const matches = byKey.get(keyOf(left, key, ctx.nodeId)) ?? [];
      if (matches.length === 0 && config.join === "left") out.push(left);
      for (const right of matches) {
        const binary = left.binary || right.binary ? { ...left.binary, ...right.binary } : undefined;
        out.push({ json: { ...left.json, ...right.json }, ...(binary ? { binary } : {}) });
      }
    }
    return { items: out };
  },
});
