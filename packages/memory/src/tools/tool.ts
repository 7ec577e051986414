import type { z } from "zod";
import { capChars, MAX_RESULT_CHARS } from "@switchyard/contracts/cap";

/** Neutral tool shape; the agent package adapts it to its own tool interface. */
export interface MemoryTool {
  name: string;
  description: string;
  permission: "read_only";
  inputSchema: z.ZodType;
  /** Resolves to the result text (≤ 4000 code points, marker included); rejects with MemoryToolError on bad input. */
  execute(args: unknown): Promise<string>;
}

/** A caller mistake (bad arguments); the message is the exact text from spec/MEMORY.md. */
export class MemoryToolError extends Error {
  override readonly name = "MemoryToolError";
  readonly code = "invalid_input";
}

/** Parses tool arguments; the first issue's message becomes the error, before any I/O happens. */
export function parseArgs<S extends z.ZodType>(schema: S, args: unknown): z.output<S> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  throw new MemoryToolError(result.error.issues[0]?.message ?? "invalid arguments");
}

export function defineMemoryTool<S extends z.ZodType>(def: {
  name: string;
  description: string;
  inputSchema: S;
  run(input: z.output<S>): Promise<string> | string;
}): MemoryTool {
  return {
    name: def.name,
    description: def.description,
    permission: "read_only",
    inputSchema: def.inputSchema,
    execute: async (args) => capChars(await def.run(parseArgs(def.inputSchema, args)), MAX_RESULT_CHARS).text,
  };
}
