/** What an agent can call. Memory tools, http_get, delegate tools and host tools share this shape. */
import type { ZodType } from "zod";
import type { PermissionLevel } from "../policy/permission";

export interface ToolContext {
  signal: AbortSignal;
  agentId: string;
  /** Delegation depth of the calling agent (0 for the agent the flow started). */
  depth: number;
  /**
   * Set by the dispatcher for this one call: a delegating tool reports the child turn and sub-agent
   * session it started, so the call's trace links to them (the trace tree).
   */
  link?(info: ToolCallLink): void;
}

export interface ToolCallLink {
  childTurnId?: string;
  subagentSessionId?: string;
  incomplete?: "iteration_limit" | "timeout" | "failed" | "cancelled";
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly permission: PermissionLevel;
  /** Reaches the network: the policy's egress class, refused on channels that do not allow it. */
  readonly network?: boolean;
  /** zod schema for the arguments; validated before execute is called. */
  readonly inputSchema: ZodType;
  execute(args: unknown, ctx: ToolContext): Promise<string>;
}

/** Name + level is all the definition loader needs to check `[tools] named`. */
export interface ToolCatalogEntry {
  readonly name: string;
  readonly permission: PermissionLevel;
  readonly network?: boolean;
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

/**
 * Catalogue of the tools the product ships, for loading definitions before the tool objects exist
 * (e.g. at start-up, before the memory store is open).
 */
export const BUILTIN_TOOL_CATALOG: readonly ToolCatalogEntry[] = Object.freeze([
  // The read-only tools @switchyard/memory ships (spec/MEMORY.md); memory_tree is not among them.
  { name: "memory_recall", permission: "read_only" as const },
  { name: "memory_hybrid_search", permission: "read_only" as const },
  { name: "memory_flavour", permission: "read_only" as const },
  // Changes nothing, but any URL can carry data out: the network class (spec/POLICY.md levels + egress).
  { name: "http_get", permission: "read_only" as const, network: true },
  // Tools that act (tools/actions.ts): the host supplies them per flow step.
  { name: "http_request", permission: "write" as const, network: true },
  { name: "send_email", permission: "write" as const, network: true },
  { name: "start_flow", permission: "write" as const },
  { name: "run_code", permission: "execute" as const },
]);
