/** The tool policy engine of spec/POLICY.md: same inputs, same session. No I/O. */
import {
  exceeds,
  networkAllowedFor,
  type PermissionLevel,
  parsePermissionLevel,
  riskFor,
  type TaskRiskLevel,
  type ToolPolicyAction,
} from "./permission";

/** Shown in place of tool names when a restricted session allows nothing (never a real tool). */
export const NO_POLICY_ALLOWED_TOOLS = "__no_policy_allowed_tools__";

export interface ToolCapability {
  readonly name: string;
  readonly requiredPermission: PermissionLevel;
  /** Reaches the network (the egress class). */
  readonly network?: boolean;
}

export interface ToolPolicyProfile {
  readonly agentId: string;
  readonly channel: string;
  readonly entrypoint: string;
  readonly riskLevel: TaskRiskLevel;
  readonly allowedPermission: PermissionLevel;
  /** Whether tools that reach the network may run (see NETWORK_MIN_CHANNEL_LEVEL). */
  readonly networkAllowed: boolean;
}

export interface ToolPolicyDecision {
  readonly action: ToolPolicyAction;
  readonly reason: string;
}

export interface ToolPolicySession {
  readonly profile: ToolPolicyProfile;
  readonly capabilities: readonly ToolCapability[];
  readonly allowedToolNames: ReadonlySet<string>;
  readonly blockedToolNames: ReadonlySet<string>;
  readonly hiddenToolNames: ReadonlySet<string>;
  readonly decisions: ReadonlyMap<string, ToolPolicyDecision>;
  isAllowed(name: string): boolean;
  hasRestrictions(): boolean;
  restrictedToolCount(): number;
  visibleToolNamesForPrompt(): ReadonlySet<string>;
  decisionFor(name: string): ToolPolicyDecision;
}

/** Anything with a name and a declared level can be policed (Tool objects qualify). */
export interface PolicedTool {
  readonly name: string;
  readonly permission?: PermissionLevel;
  readonly requiredPermission?: PermissionLevel;
  readonly network?: boolean;
}

/** Channel ceiling: empty map → dangerous (legacy); missing or unparseable → read_only. */
export function ceilingForChannel(
  channelPermissions: Readonly<Record<string, string>> | ReadonlyMap<string, string>,
  channel: string,
): PermissionLevel {
  const entries =
    channelPermissions instanceof Map
      ? channelPermissions
      : new Map(Object.entries(channelPermissions as Record<string, string>));
  if (entries.size === 0) return "dangerous";
  return parsePermissionLevel(entries.get(channel)) ?? "read_only";
}

/** A set whose iteration order is sorted and which cannot be changed after creation. */
class FrozenSortedSet extends Set<string> {
  #sealed = false;
  constructor(values: Iterable<string>) {
    // Set's constructor would call the overridden add(); fill through super.add instead.
    super();
    for (const v of [...new Set(values)].sort()) super.add(v);
    this.#sealed = true;
    Object.freeze(this);
  }
  override add(value: string): this {
    if (this.#sealed) throw new TypeError("ToolPolicySession sets are immutable");
    return super.add(value);
  }
  override delete(_value: string): boolean {
    throw new TypeError("ToolPolicySession sets are immutable");
  }
  override clear(): void {
    throw new TypeError("ToolPolicySession sets are immutable");
  }
}

class FrozenMap<K, V> extends Map<K, V> {
  #sealed = false;
  constructor(entries: Iterable<readonly [K, V]>) {
    super();
    for (const [k, v] of entries) super.set(k, v);
    this.#sealed = true;
    Object.freeze(this);
  }
  override set(key: K, value: V): this {
    if (this.#sealed) throw new TypeError("ToolPolicySession decisions are immutable");
    return super.set(key, value);
  }
  override delete(_key: K): boolean {
    throw new TypeError("ToolPolicySession decisions are immutable");
  }
  override clear(): void {
    throw new TypeError("ToolPolicySession decisions are immutable");
  }
}

const UNKNOWN_TOOL_DECISION: ToolPolicyDecision = Object.freeze({
  action: "deny",
  reason: "unknown tool (fail closed)",
});

export function buildSession(
  agentId: string,
  channel: string,
  entrypoint: string,
  channelPermissions: Readonly<Record<string, string>> | ReadonlyMap<string, string>,
  tools: readonly PolicedTool[],
  visibleToolNames: Iterable<string>,
  /** Defaults to what the ceiling grants; agentSession passes the channel's own (before a sandbox narrows it). */
  networkAllowed?: boolean,
): ToolPolicySession {
  const ceiling = ceilingForChannel(channelPermissions, channel);
  const network = networkAllowed ?? networkAllowedFor(ceiling);
  const visible = new Set(visibleToolNames);
  const allowed: string[] = [];
  const blocked: string[] = [];
  const hidden: string[] = [];
  const decisions: [string, ToolPolicyDecision][] = [];
  const capabilities: ToolCapability[] = [];

  for (const tool of tools) {
    const required = tool.requiredPermission ?? tool.permission ?? "dangerous";
    capabilities.push(
      Object.freeze({
        name: tool.name,
        requiredPermission: required,
        ...(tool.network ? { network: true } : {}),
      }),
    );
    let decision: ToolPolicyDecision;
    if (visible.size > 0 && !visible.has(tool.name)) {
      hidden.push(tool.name);
      decision = { action: "hide_from_prompt", reason: "not in the agent's visible tool list" };
    } else if (exceeds(required, ceiling)) {
      blocked.push(tool.name);
      decision = { action: "deny", reason: `requires ${required}, channel ceiling is ${ceiling}` };
    } else if (tool.network && !network) {
      blocked.push(tool.name);
      decision = { action: "deny", reason: `reaches the network, which channel ${channel} does not allow` };
    } else {
      allowed.push(tool.name);
      decision = { action: "allow", reason: `requires ${required}, within ceiling ${ceiling}` };
    }
    decisions.push([tool.name, Object.freeze(decision)]);
  }

  const allowedSet = new FrozenSortedSet(allowed);
  const blockedSet = new FrozenSortedSet(blocked);
  const hiddenSet = new FrozenSortedSet(hidden);
  const decisionMap = new FrozenMap(decisions.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const restricted = blockedSet.size + hiddenSet.size;
  const promptVisible = new FrozenSortedSet(
    restricted === 0 ? [] : allowedSet.size > 0 ? allowedSet : [NO_POLICY_ALLOWED_TOOLS],
  );

  const session: ToolPolicySession = {
    profile: Object.freeze({
      agentId,
      channel,
      entrypoint,
      riskLevel: riskFor(ceiling),
      allowedPermission: ceiling,
      networkAllowed: network,
    }),
    capabilities: Object.freeze(
      capabilities.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    ),
    allowedToolNames: allowedSet,
    blockedToolNames: blockedSet,
    hiddenToolNames: hiddenSet,
    decisions: decisionMap,
    isAllowed: (name) => decisionMap.get(name)?.action === "allow",
    hasRestrictions: () => restricted > 0,
    restrictedToolCount: () => restricted,
    visibleToolNamesForPrompt: () => promptVisible,
    decisionFor: (name) => decisionMap.get(name) ?? UNKNOWN_TOOL_DECISION,
  };
  return Object.freeze(session);
}

/** Plain-data view of a session for traces and the UI. */
export interface ToolPolicySnapshot extends ToolPolicyProfile {
  allowed: string[];
  hidden: string[];
  denied: string[];
}

export function snapshotSession(session: ToolPolicySession): ToolPolicySnapshot {
  return {
    ...session.profile,
    allowed: [...session.allowedToolNames],
    hidden: [...session.hiddenToolNames],
    denied: [...session.blockedToolNames],
  };
}
