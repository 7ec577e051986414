/** Shared fakes for agent tests: memory tools of the @switchyard/memory shape and a recording write tool. */
import { resolve } from "node:path";
import { z } from "zod";
import { loadAgents } from "../definitions/loader";
import type { AgentDefinition } from "../definitions/schema";
import { BUILTIN_TOOL_CATALOG, type MemoryToolLike, type Tool, type ToolCatalogEntry } from "../tools/tool";

export const AGENTS_DIR = resolve(import.meta.dirname, "../../../../agents");

export interface FakeMemory {
  kind: "memory" | "transcript" | "person" | "profile";
  key: string;
  content: string;
}

export const MEMORIES: FakeMemory[] = [
  {
    kind: "person",
    key: "Dana Whitfield",
    content: "procurement lead at Harbor Logistics; prefers e-mail over calls",
  },
  {
    kind: "memory",
    key: "INV-2291",
    content: "Harbor Logistics invoice disputed in March, settled at 4,200 EUR",
  },
  { kind: "transcript", key: "harbor-renewal", content: "Dana asked for the renewal quote by Friday" },
];

export interface MemoryFake {
  tools: MemoryToolLike[];
  calls: { name: string; args: unknown }[];
}

/** Keyword match over MEMORIES, answering in the memory service's output format (spec/MEMORY.md). */
export function fakeMemoryTools(memories: readonly FakeMemory[] = MEMORIES): MemoryFake {
  const calls: { name: string; args: unknown }[] = [];
  const recallArgs = z.strictObject({
    query: z.string().min(1, "query cannot be empty"),
    namespace: z.string().min(1).default("global"),
    limit: z.number().int().positive().default(5),
  });
  const hybridArgs = z.strictObject({
    query: z.string().min(1, "query cannot be empty"),
    namespace: z.string().min(1),
    mode: z.enum(["balanced", "semantic", "lexical"]).default("balanced"),
    limit: z.number().int().min(1).max(50).default(10),
  });
  const search = (q: string) => {
    const words = q
      .toLowerCase()
      .split(/[^a-z0-9-]+/)
      .filter((w) => w.length > 3);
    return memories.filter((m) => words.some((w) => `${m.key} ${m.content}`.toLowerCase().includes(w)));
  };
  const line = (m: FakeMemory) => `- [${m.kind}] ${m.key}: ${m.content} [87%]`;
  const tool = (name: string, inputSchema: z.ZodType, run: (args: never) => string): MemoryToolLike => ({
    name,
    description: `Fake ${name} over a fixed list of memories.`,
    permission: "read_only",
    inputSchema,
    async execute(args) {
      calls.push({ name, args });
      return run(inputSchema.parse(args) as never);
    },
  });
  return {
    calls,
    tools: [
      tool("memory_recall", recallArgs, (a: { query: string }) => {
        const hits = search(a.query);
        return hits.length === 0
          ? "No memories found matching that query."
          : `Found ${hits.length} memories:\n${hits.map(line).join("\n")}`;
      }),
      tool("memory_hybrid_search", hybridArgs, (a: { query: string; mode: string }) => {
        const hits = search(a.query);
        return `Found ${hits.length} results (mode=${a.mode}):\n${hits.map(line).join("\n")}`;
      }),
      tool(
        "memory_flavour",
        z.strictObject({ flavour: z.string() }),
        () => "Short, friendly replies; signs 'Best, Sam'.",
      ),
      tool("memory_tree", z.object({}), () => memories.map(line).join("\n")),
    ],
  };
}

/** A tool that would change the world; tests assert it is never executed when denied. */
export function recordingTool(name: string, permission: Tool["permission"]): Tool & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    name,
    description: `Test tool ${name} (${permission}).`,
    permission,
    inputSchema: z.object({}).passthrough(),
    calls,
    async execute(args) {
      calls.push(args);
      return `${name} done`;
    },
  };
}

export const TEST_CATALOG: ToolCatalogEntry[] = [
  // send_email is a built-in now (tools/send-email.ts); the harness registers a recording one under that name.
  ...BUILTIN_TOOL_CATALOG,
  { name: "delete_memory", permission: "write" },
  { name: "run_script", permission: "execute" },
];

export function loadShipped(): Promise<Map<string, AgentDefinition>> {
  return loadAgents(AGENTS_DIR, TEST_CATALOG);
}
