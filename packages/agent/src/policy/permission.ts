/** Permission levels and risk, as in spec/POLICY.md. Pure functions, no I/O. */

/** Ordered: none < read_only < write < execute < dangerous. */
export const PERMISSION_LEVELS = ["none", "read_only", "write", "execute", "dangerous"] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export type TaskRiskLevel = "low" | "medium" | "high" | "critical";
export type ToolPolicyAction = "allow" | "require_approval" | "deny" | "hide_from_prompt";

export function permissionRank(level: PermissionLevel): number {
  return PERMISSION_LEVELS.indexOf(level);
}

/** True when `level` needs more than `ceiling` grants. */
export function exceeds(level: PermissionLevel, ceiling: PermissionLevel): boolean {
  return permissionRank(level) > permissionRank(ceiling);
}

/** The lower of two levels (used to narrow a channel ceiling by a sandbox). */
export function minPermission(a: PermissionLevel, b: PermissionLevel): PermissionLevel {
  return permissionRank(a) <= permissionRank(b) ? a : b;
}

/**
 * Lenient parse: trim, lower-case, drop `-` and `_`. Returns undefined for anything unrecognised
 * so callers can apply their own fail-safe default.
 */
export function parsePermissionLevel(raw: unknown): PermissionLevel | undefined {
  if (typeof raw !== "string") return undefined;
  const key = raw.trim().toLowerCase().replace(/[-_]/g, "");
  switch (key) {
    case "none":
      return "none";
    case "readonly":
    case "read":
      return "read_only";
    case "write":
      return "write";
    case "execute":
    case "exec":
      return "execute";
    case "dangerous":
    case "danger":
      return "dangerous";
    default:
      return undefined;
  }
}

/**
 * Tools that reach the network (`network: true`) are a class of their own: whatever level they
 * declare, they may also carry data out (a URL is enough), so a channel grants them only when its
 * ceiling is at least this level. The default webhook and e-mail ceilings (read_only) do not.
 */
export const NETWORK_MIN_CHANNEL_LEVEL: PermissionLevel = "write";

/** Whether a channel with this ceiling may use tools that reach the network. */
export function networkAllowedFor(channelCeiling: PermissionLevel): boolean {
  return !exceeds(NETWORK_MIN_CHANNEL_LEVEL, channelCeiling);
}

export function riskFor(level: PermissionLevel): TaskRiskLevel {
  switch (level) {
    case "none":
    case "read_only":
      return "low";
    case "write":
      return "medium";
    case "execute":
      return "high";
    case "dangerous":
      return "critical";
  }
}
