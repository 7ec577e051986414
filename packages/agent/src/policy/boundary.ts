/** The `## Tool Policy Boundary` prompt section of spec/POLICY.md, bounded in UTF-8 bytes. */
import { capChars, utf8Length } from "@switchyard/contracts/cap";
import type { ToolPolicySession } from "./session";

export { utf8Length };

export function renderToolPolicyBoundary(session: ToolPolicySession, maxBytes: number): string {
  if (!session.hasRestrictions() || maxBytes <= 0) return "";
  const p = session.profile;
  const lines = [
    "## Tool Policy Boundary",
    `- Agent: ${p.agentId}`,
    `- Channel: ${p.channel}`,
    `- Entry point: ${p.entrypoint}`,
    `- Allowed permission: ${p.allowedPermission}`,
    `- Risk: ${p.riskLevel}`,
  ];
  // Only an agent that would see a network tool gets the line, so the spec's vectors stay byte-exact.
  if (session.capabilities.some((c) => c.network && !session.hiddenToolNames.has(c.name)))
    lines.push(
      p.networkAllowed
        ? "- Network access: allowed"
        : "- Network access: not allowed on this channel; tools that reach the network are refused",
    );
  if (session.allowedToolNames.size > 0)
    lines.push(`- Allowed tools: ${[...session.allowedToolNames].join(", ")}`);
  const restricted = session.restrictedToolCount();
  if (restricted > 0) lines.push(`- Restricted tools: ${restricted} omitted by policy`);
  return capChars(`${lines.join("\n")}\n`, maxBytes, { unit: "utf8" }).text;
}
