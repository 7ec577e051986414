import type { AgentDefinition } from "../definitions/schema";
import { minPermission, networkAllowedFor, type PermissionLevel } from "./permission";
import { buildSession, ceilingForChannel, type PolicedTool, type ToolPolicySession } from "./session";

/**
 * The policy session of one agent turn: capabilities = every registered tool plus the agent's delegates;
 * visible = `[tools] named` (+ delegates), where `named = []` means no tools at all; a read_only sandbox
 * narrows the channel's ceiling. The runner and the settings preview both build sessions here.
 */
export function agentSession(o: {
  def: AgentDefinition;
  channel: string;
  ceilings: Readonly<Record<string, string>> | ReadonlyMap<string, string>;
  tools: readonly PolicedTool[];
  delegates: readonly PolicedTool[];
  /** A delegated turn: its parent's ceiling, which the child never exceeds. */
  parentCeiling?: PermissionLevel;
}): { session: ToolPolicySession; channelCeiling: PermissionLevel; ceiling: PermissionLevel } {
  const channelCeiling = ceilingForChannel(o.ceilings, o.channel);
  const sandboxed =
    o.def.sandboxMode === "read_only" ? minPermission(channelCeiling, "read_only") : channelCeiling;
  const ceiling = o.parentCeiling ? minPermission(sandboxed, o.parentCeiling) : sandboxed;
  const single = { [o.channel]: ceiling };
  // Egress follows the channel (how far its input is trusted), not the sandbox, which limits writes.
  const network = networkAllowedFor(channelCeiling);
  const { def, channel } = o;
  const session =
    def.tools === "all"
      ? buildSession(def.id, channel, "flow", single, [...o.tools, ...o.delegates], [], network)
      : def.tools.length === 0
        ? buildSession(def.id, channel, "flow", single, [...o.delegates], [], network)
        : buildSession(
            def.id,
            channel,
            "flow",
            single,
            [...o.tools, ...o.delegates],
            [...def.tools, ...o.delegates.map((d) => d.name)],
            network,
          );
  return { session, channelCeiling, ceiling };
}
