/** Shared fakes for agent tests: memory tools of the @switchyard/memory shape and a recording write tool. */
import { resolve } from "node:path";
import { z } from "zod";
import { loadAgents } from "../definitions/loader";
import type { AgentDefinition } from "../definitions/schema";
import { BUILTIN_TOOL_CATALOG, type MemoryToolLike, type Tool, type ToolCatalogEntry } from "../tools/tool";

export const AGENTS_DIR = resolve(import.meta.dirname, "../../../../agents");

export const MEMORIES = [
  "Dana Whitfield is the procurement lead at Harbor Logistics; prefers e-mail over calls.",
  "Invoice INV-2291 for Harbor Logistics was disputed in March and settled at 4,200 EUR.",
  "The user signs e-mails with 'Best, Sam' and writes short, friendly replies.",
];

export interface MemoryFake {
  tools: MemoryToolLike[];
  calls: { name: string; args: unknown }[];
}

/** Keyword match over MEMORIES; results tagged like the memory service would. */
export function fakeMemoryTools(memories: readonly string[] = MEMORIES): MemoryFake {
  const calls: { name: string; args: unknown }[] = [];
  const query = z.object({ query: z.string().min(1), limit: z.number().int().positive().optional() });
  const search = (q: string) => {
    const words = q
      .toLowerCase()
      .split(/[^a-z0-9-]+/)
      .filter((w) => w.length > 3);
    return memories.filter((m) => words.some((w) => m.toLowerCase().includes(w)));
  };
  const make = (name: string, run: (q: string) => string[]): MemoryToolLike => ({
    name,
    description: `Fake ${name} over a fixed list of memories.`,
    permission: "read_only",
    inputSchema: query,
    async execute(args) {
      calls.push({ name, args });
      const { query: q } = query.parse(args);
      return run(q).join("\n");
    },
  });
  return {
    calls,
    tools: [
      make("memory_recall", search),
      make("memory_hybrid_search", search),
      make("memory_flavour", () => [memories[2] ?? ""]),
      make("memory_tree", () => memories.slice()),
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
  ...BUILTIN_TOOL_CATALOG,
  { name: "send_email", permission: "write" },
  { name: "delete_memory", permission: "write" },
  { name: "run_script", permission: "execute" },
];

export function loadShipped(): Promise<Map<string, AgentDefinition>> {
  return loadAgents(AGENTS_DIR, TEST_CATALOG);
}
