import { z } from "zod";
import { defineNode } from "../define";
import { valueToItems } from "../util/items";
import { runSandbox } from "./sandbox";

/**
 * Runs user JavaScript over all items in a QuickJS sandbox (no host objects, no require,
 * no network, no files). The code sees `items` (an array of the items' JSON) and returns
 * the new items; `await` is allowed; console output goes to the run log.
 */
export const codeNode = defineNode({
  type: "code",
  typeVersion: 1,
  pure: true,
  longRunning: true,
  // Its own language, not a config expression: the executor must not evaluate { } inside it.
  rawFields: ["code"],
  title: "Code",
  description: "Transforms items with JavaScript in a sandbox.",
  category: "data",
  icon: "code",
  ports: ["main"],
  config: z.object({
    code: z
      .string()
      .min(1)
      .max(100_000)
      .describe(
        "JavaScript function body; `items` holds the input JSON; return an object or an array of objects",
      ),
    timeoutMs: z.number().int().min(100).max(60_000).default(5_000).describe("Time limit, in milliseconds"),
    memoryMb: z.number().int().min(8).max(256).default(64).describe("Memory limit, in MB"),
  }),
  example: {
    code: "return items.map((item) => ({ ...item, total: item.price * item.qty }));",
    timeoutMs: 2000,
  },
  async execute({ config, input, ctx }) {
    const value = await runSandbox({
      code: config.code,
      input: input.map((i) => i.json),
      timeoutMs: config.timeoutMs,
      memoryMb: config.memoryMb,
      signal: ctx.signal,
      nodeId: ctx.nodeId,
      onLog: (level, message) => ctx.log[level](message),
    });
    return { items: valueToItems(value, "code", "sandbox_failed", ctx.nodeId) };
  },
});
