import {
  type AgentDefinition,
  agentSession,
  BUILTIN_TOOL_CATALOG,
  SUBAGENT_TOOL_NAMES,
  DEFAULT_CHANNEL_CEILINGS,
  PERMISSION_LEVELS,
  type PolicedTool,
  renderToolPolicyBoundary,
} from "@switchyard/agent";
import { type RunChannel, runChannels } from "@switchyard/contracts/runs";
import { z } from "zod";

/**
 * The contracts' channels in the order the settings table and the agents page show them: the untrusted
 * ones first, so the tab a page opens on is the most restricted. Only the order is chosen here.
 */
const displayOrder: Record<RunChannel, number> = {
  webhook: 0,
  email: 1,
  error: 2,
  cron: 3,
  api: 4,
  manual: 5,
  subflow: 6,
};
export const CHANNELS: readonly RunChannel[] = [...runChannels].sort(
  (a, b) => displayOrder[a] - displayOrder[b],
);
export type Channel = RunChannel;

/** Bytes the agent prompt gives the boundary section; the preview renders it the same way. */
export const BOUNDARY_MAX_BYTES = 2048;

const level = z.enum(PERMISSION_LEVELS);
/**
 * The editable ceilings: every top-level channel must have a level (the product never stores an
 * empty map, which would mean "unrestricted"); `subflow` is optional because it inherits its parent's,
 * `error` because maps stored before it existed lack it (a missing channel fails safe to read_only).
 */
export const ceilingsInputSchema = z.strictObject({
  webhook: level,
  email: level,
  cron: level,
  api: level,
  manual: level,
  error: level.optional(),
  subflow: level.optional(),
});
export type CeilingsInput = z.infer<typeof ceilingsInputSchema>;

export const safeDefaultCeilings = (): Record<string, string> => ({ ...DEFAULT_CHANNEL_CEILINGS });

/** The stored ceilings, or the safe defaults when the setting is absent or not a map of strings. */
export function effectiveCeilings(stored: unknown): { ceilings: Record<string, string>; stored: boolean } {
  const parsed = z.record(z.string(), z.string()).safeParse(stored);
  if (parsed.success) return { ceilings: parsed.data, stored: true };
  return { ceilings: safeDefaultCeilings(), stored: false };
}

export interface PolicyPreview {
  agentId: string;
  channel: string;
  allowedPermission: string;
  riskLevel: string;
  /** The channel's ceiling before a read_only sandbox narrowed it. */
  channelCeiling: string;
  narrowedBySandbox: boolean;
  /** Whether tools that reach the network may run on this channel (ceiling write or above). */
  networkAllowed: boolean;
  allowed: string[];
  hidden: string[];
  denied: string[];
  decisions: { tool: string; action: string; reason: string }[];
  boundary: string;
}

/**
 * The session an agent turn would get on this channel, built by the runner's own `agentSession` from the
 * built-in tool catalogue plus one read_only delegate per allowed sub-agent and the sub-agent session tools. A test compares it with the
 * policy snapshot the real runner records in its trace.
 */
export function previewPolicy(
  def: AgentDefinition,
  definitions: ReadonlyMap<string, AgentDefinition>,
  channel: string,
  ceilings: Readonly<Record<string, string>>,
): PolicyPreview {
  const delegates: PolicedTool[] = def.subagents.flatMap((id) => {
    const child = definitions.get(id);
    return child ? [{ name: child.delegateName, permission: "read_only" as const }] : [];
  });
  // A delegating agent also manages its sessions (list/wait/cancel/continue), as the runner gives it.
  if (def.subagents.length > 0)
    delegates.push(...SUBAGENT_TOOL_NAMES.map((name) => ({ name, permission: "read_only" as const })));
  const { session, channelCeiling, ceiling } = agentSession({
    def,
    channel,
    ceilings,
    tools: BUILTIN_TOOL_CATALOG,
    delegates,
  });
  return {
    agentId: def.id,
    channel,
    allowedPermission: session.profile.allowedPermission,
    riskLevel: session.profile.riskLevel,
    channelCeiling,
    narrowedBySandbox: ceiling !== channelCeiling,
    networkAllowed: session.profile.networkAllowed,
    allowed: [...session.allowedToolNames],
    hidden: [...session.hiddenToolNames],
    denied: [...session.blockedToolNames],
    decisions: [...session.decisions].map(([tool, d]) => ({ tool, action: d.action, reason: d.reason })),
    boundary: renderToolPolicyBoundary(session, BOUNDARY_MAX_BYTES),
  };
}
