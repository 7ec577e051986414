import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildSession } from "../policy/session";
import type { Tool } from "../tools/tool";
import { DEFAULT_MAX_TOOL_RESULT_CHARS, dispatchToolCall } from "./tool-dispatch";

const longNote: Tool = {
  name: "long_note",
  description: "Returns a long text.",
  permission: "read_only",
  inputSchema: z.strictObject({ chars: z.number().int() }),
  execute: async (args) => "n".repeat((args as { chars: number }).chars),
};
const session = buildSession("a", "manual", "flow", { manual: "read_only" }, [longNote], []);
const ctx = { signal: new AbortController().signal, agentId: "a", depth: 0 };
const call = (chars: number) => ({ id: "c1", name: "long_note", arguments: JSON.stringify({ chars }) });

describe("dispatchToolCall result cap", () => {
  it("hands the model a tool result of at most the limit, marker included, and traces the same text", async () => {
    const tools = new Map([[longNote.name, longNote]]);
    const out = await dispatchToolCall(call(100), 1, session, tools, ctx, 40);
    expect(out.content).toBe(`${"n".repeat(25)}\n[...truncated]`);
    expect(out.trace).toMatchObject({ outcome: "executed", result: out.content });
  });

  it("caps at 20 000 characters by default", async () => {
    const tools = new Map([[longNote.name, longNote]]);
    expect(DEFAULT_MAX_TOOL_RESULT_CHARS).toBe(20_000);
    const out = await dispatchToolCall(call(30_000), 1, session, tools, ctx);
    expect(out.content).toHaveLength(20_000);
    expect(out.content.endsWith("\n[...truncated]")).toBe(true);
    expect((await dispatchToolCall(call(20_000), 1, session, tools, ctx)).content).toBe("n".repeat(20_000));
  });
});
