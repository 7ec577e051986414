/** Cross-definition rules the loader enforces (spec/AGENTS.md §1), also reused at delegation time. */
import { exceeds, type PermissionLevel } from "../policy/permission";
import type { ToolCatalogEntry } from "../tools/tool";
import type { AgentDefinition, AgentTier } from "./schema";

export const FLOW_MEMORY_AGENT_ID = "flow_memory_agent";
/** Runtime cap on delegation hops from the agent a flow started. */
export const MAX_DELEGATION_DEPTH = 3;

/** The refusal for a parent → child hop, or undefined when the tiers allow it. */
export function tierRefusal(
  parent: { id: string; agentTier: AgentTier },
  child: { id: string; agentTier: AgentTier },
): string | undefined {
  if (parent.agentTier === "worker") {
    return `agent \`${parent.id}\` is a \`worker\` tier and must not list \`${child.id}\` in its subagents — workers are leaf executors`;
  }
  if (parent.agentTier === "chat" && child.agentTier === "chat") {
    return `agent \`${parent.id}\` cannot delegate to \`${child.id}\`: the chat tier is a leaf in its own dimension — hand off to a reasoning or worker agent instead`;
  }
  if (parent.agentTier === "reasoning" && child.agentTier === "reasoning") {
    return `agent \`${parent.id}\` cannot delegate to \`${child.id}\`: reasoning agents compose downward into workers, not into each other`;
  }
  return undefined;
}

/** Every rule that needs the whole set of definitions and the tool catalogue. Returns problems. */
export function checkDefinitions(
  defs: ReadonlyMap<string, AgentDefinition>,
  catalog: readonly ToolCatalogEntry[],
): string[] {
  const problems: string[] = [];
  const levels = new Map<string, PermissionLevel>(catalog.map((t) => [t.name, t.permission]));
  for (const def of defs.values()) {
    const listed = def.tools === "all" ? [] : def.tools;
    for (const name of listed) {
      const level = levels.get(name);
      if (level === undefined) {
        // flow_memory_agent gets the specific memory_tree refusal below instead.
        if (def.id === FLOW_MEMORY_AGENT_ID && name === "memory_tree") continue;
        problems.push(`agent \`${def.id}\` lists unknown tool \`${name}\``);
        continue;
      }
      if (def.sandboxMode === "read_only" && exceeds(level, "read_only")) {
        problems.push(
          `agent \`${def.id}\` has sandbox_mode \`read_only\` and must not list \`${name}\` (requires \`${level}\`)`,
        );
      }
    }
    if (def.id === FLOW_MEMORY_AGENT_ID) problems.push(...flowMemoryAgentProblems(def, catalog));
    problems.push(...subagentProblems(def, defs, levels));
  }
  return problems;
}

/** flow_memory_agent never gets memory_tree nor anything that can write, listed or via "all". */
function flowMemoryAgentProblems(def: AgentDefinition, catalog: readonly ToolCatalogEntry[]): string[] {
  const problems: string[] = [];
  const effective = def.tools === "all" ? catalog.map((t) => t.name) : def.tools;
  if (def.tools === "all") {
    problems.push(`agent \`${def.id}\` must name its tools explicitly in [tools] named`);
  }
  for (const name of effective) {
    if (name === "memory_tree") {
      problems.push(`agent \`${def.id}\` must never list \`memory_tree\``);
      continue;
    }
    const level = catalog.find((t) => t.name === name)?.permission;
    if (level && exceeds(level, "read_only")) {
      problems.push(`agent \`${def.id}\` must never list \`${name}\`: it can write (requires \`${level}\`)`);
    }
  }
  if (def.subagents.length > 0) problems.push(`agent \`${def.id}\` must not list subagents`);
  return problems;
}

function subagentProblems(
  def: AgentDefinition,
  defs: ReadonlyMap<string, AgentDefinition>,
  levels: ReadonlyMap<string, PermissionLevel>,
): string[] {
  const problems: string[] = [];
  const delegateNames = new Map<string, string>();
  for (const childId of def.subagents) {
    const child = defs.get(childId);
    if (def.agentTier === "worker") {
      problems.push(tierRefusal(def, { id: childId, agentTier: child?.agentTier ?? "worker" }) as string);
      continue;
    }
    if (!child) {
      problems.push(`agent \`${def.id}\` lists unknown subagent \`${childId}\``);
      continue;
    }
    const refusal = tierRefusal(def, child);
    if (refusal) problems.push(refusal);
    const clash = delegateNames.get(child.delegateName);
    if (clash) {
      problems.push(
        `agent \`${def.id}\` would get two delegate tools named \`${child.delegateName}\` (from \`${clash}\` and \`${childId}\`)`,
      );
    } else if (levels.has(child.delegateName)) {
      problems.push(
        `agent \`${def.id}\`: delegate tool \`${child.delegateName}\` for \`${childId}\` collides with a tool of the same name`,
      );
    }
    delegateNames.set(child.delegateName, childId);
  }
  return problems;
}
