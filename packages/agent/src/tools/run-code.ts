/**
 * `run_code`: run a JavaScript function body in the `code` node's sandbox (QuickJS: no host objects,
 * no network, no files; time and memory limits). Execute level: the channel must allow running code.
 */
import { capChars } from "@switchyard/contracts/cap";
import { z } from "zod";
import { type ActionCapabilities, toolJson } from "./actions";
import type { Tool } from "./tool";

const input = z.strictObject({
  code: z
    .string()
    .min(1)
    .max(100_000)
    .describe("JavaScript function body; `items` holds the input objects; return an object or a list"),
  items: z
    .array(z.record(z.string(), z.unknown()))
    .max(1000)
    .default([])
    .describe("Input objects the code sees as `items`"),
});

export function createRunCodeTool(cap: ActionCapabilities, maxChars = 20_000): Tool {
  return {
    name: "run_code",
    description:
      "Run a short JavaScript function body in a sandbox (no network, no files) over `items` and return what it returns.",
    permission: "execute",
    inputSchema: input,
    async execute(args, ctx) {
      const a = input.parse(args);
      const out = await cap.runCode(a.code, a.items, ctx.signal);
      return capChars(toolJson(out), maxChars).text;
    },
  };
}
