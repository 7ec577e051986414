/** The `## Tool Policy Boundary` prompt section of spec/POLICY.md, bounded in UTF-8 bytes. */
import type { ToolPolicySession } from "./session";

const TRUNCATION_MARK = "\n[...truncated]";
const encoder = new TextEncoder();

export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** Longest prefix of `text` whose UTF-8 encoding fits `maxBytes`, never splitting a code point. */
export function cutToUtf8Bytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return "";
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

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
  const full = `${lines.join("\n")}\n`;
  if (utf8Length(full) <= maxBytes) return full;
  const markBytes = utf8Length(TRUNCATION_MARK);
  if (markBytes > maxBytes) return cutToUtf8Bytes(full, maxBytes);
  return cutToUtf8Bytes(full, maxBytes - markBytes) + TRUNCATION_MARK;
}
