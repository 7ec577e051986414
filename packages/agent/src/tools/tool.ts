/** What an agent can call. Memory tools, http_get, delegate tools and host tools share this shape. */
import type { ZodType } from "zod";
import type { PermissionLevel } from "../policy/permission";

export interface ToolContext {
  signal: AbortSignal;
  agentId: string;
  /** Delegation depth of the calling agent (0 for the agent the flow started). */
  depth: number;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly permission: PermissionLevel;
  /** zod schema for the arguments; validated before execute is called. */
  readonly inputSchema: ZodType;
  execute(args: unknown, ctx: ToolContext): Promise<string>;
}

/** Name + level is all the definition loader needs to check `[tools] named`. */
export interface ToolCatalogEntry {
  readonly name: string;
  readonly permission: PermissionLevel;
}

/** The shape @switchyard/memory's `createMemoryTools(reader)` returns. */
export interface MemoryToolLike {
  readonly name: string;
  readonly description: string;
  readonly permission: "read_only";
  readonly inputSchema: ZodType;
  execute(args: unknown): Promise<string>;
}

/** Wraps a memory tool; the level is pinned to read_only whatever the object claims. */
export function fromMemoryTool(tool: MemoryToolLike): Tool {
  return {
    name: tool.name,
    description: tool.description,
    permission: "read_only",
    inputSchema: tool.inputSchema,
    execute: (args) => tool.execute(args),
  };
}

/** Names of the memory tools agents may use (read-only). `memory_tree` exists but is never given to flow_memory_agent. */
export const MEMORY_TOOL_NAMES = [
  "memory_recall",
  "memory_hybrid_search",
  "memory_flavour",
  "memory_tree",
] as const;

/**
 * Catalogue of the tools the product ships, for loading definitions before the tool objects exist
 * (e.g. at start-up, before the memory store is open).
 */
export const BUILTIN_TOOL_CATALOG: readonly ToolCatalogEntry[] = Object.freeze([
  ...MEMORY_TOOL_NAMES.map((name) => ({ name, permission: "read_only" as const })),
  { name: "http_get", permission: "read_only" as const },
]);
