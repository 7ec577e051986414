import { describe, expect, it } from "vitest";
import { renderToolPolicyBoundary, utf8Length } from "./boundary";
import { DEFAULT_CHANNEL_CEILINGS, effectiveChannel } from "./channels";
import { parsePermissionLevel } from "./permission";
import { buildSession, NO_POLICY_ALLOWED_TOOLS, type PolicedTool } from "./session";

const tools: PolicedTool[] = [
  { name: "read_notes", permission: "read_only" },
  { name: "write_notes", permission: "write" },
  { name: "run_script", permission: "execute" },
];

describe("buildSession (POLICY.md test vectors)", () => {
  it("vector 1: a channel missing from a non-empty map gets the read_only ceiling", () => {
    const s = buildSession("a", "unknown-channel", "flow", { web: "write" }, tools, []);
    expect(s.profile.allowedPermission).toBe("read_only");
    expect(s.isAllowed("read_notes")).toBe(true);
    expect(s.isAllowed("write_notes")).toBe(false);
  });

  it("vector 2: an empty map is legacy unrestricted (dangerous) and restricts nothing", () => {
    const s = buildSession("a", "web", "flow", {}, tools, []);
    expect(s.profile.allowedPermission).toBe("dangerous");
    expect(s.profile.riskLevel).toBe("critical");
    expect([...s.allowedToolNames]).toEqual(["read_notes", "run_script", "write_notes"]);
    expect(s.hasRestrictions()).toBe(false);
    expect(s.visibleToolNamesForPrompt().size).toBe(0);
  });

  it("vector 3: a write ceiling allows read and write tools and denies execute", () => {
    const s = buildSession("a", "web", "flow", { web: "write" }, tools, []);
    expect(s.isAllowed("read_notes")).toBe(true);
    expect(s.isAllowed("write_notes")).toBe(true);
    expect(s.isAllowed("run_script")).toBe(false);
    expect(s.decisionFor("run_script").action).toBe("deny");
    expect(s.profile.riskLevel).toBe("medium");
  });

  it("vector 4: tools outside the visible list are hidden, independent of the ceiling", () => {
    const s = buildSession("code_executor", "cli", "flow", { cli: "execute" }, tools, ["run_script"]);
    expect([...s.allowedToolNames]).toEqual(["run_script"]);
    expect(s.blockedToolNames.size).toBe(0);
    expect(s.hiddenToolNames.has("read_notes")).toBe(true);
    expect(s.hiddenToolNames.has("write_notes")).toBe(true);
    expect(s.hasRestrictions()).toBe(true);
    expect(s.restrictedToolCount()).toBe(2);
    expect([...s.visibleToolNamesForPrompt()]).toEqual(["run_script"]);
    expect(s.decisionFor("read_notes").action).toBe("hide_from_prompt");
  });

  it("vector 5: read_only denies write tools and unknown tools fail closed", () => {
    const s = buildSession("a", "web", "flow", { web: "read_only" }, tools, []);
    expect(s.decisionFor("write_notes").action).toBe("deny");
    expect(s.decisionFor("missing_tool").action).toBe("deny");
    expect(s.isAllowed("missing_tool")).toBe(false);
    expect(s.decisionFor("read_notes").action).not.toBe("deny");
  });

  it("hide before deny: a tool both outside the visible list and above the ceiling is hidden, not denied", () => {
    const s = buildSession("a", "web", "flow", { web: "read_only" }, tools, ["read_notes", "write_notes"]);
    // run_script: not visible AND execute > read_only. Hidden wins; it never counts as a ceiling denial.
    expect(s.decisionFor("run_script")).toEqual({
      action: "hide_from_prompt",
      reason: "not in the agent's visible tool list",
    });
    expect([...s.hiddenToolNames]).toEqual(["run_script"]);
    expect([...s.blockedToolNames]).toEqual(["write_notes"]);
    expect([...s.visibleToolNamesForPrompt()]).toEqual(["read_notes"]);
    expect(renderToolPolicyBoundary(s, 2048)).not.toContain("run_script");
  });

  it("vector 6: the boundary names allowed tools and counts, never names, restricted ones", () => {
    const s = buildSession("orchestrator", "web", "flow", { web: "read_only" }, tools.slice(0, 2), []);
    const text = renderToolPolicyBoundary(s, 2048);
    expect(text).toBe(
      [
        "## Tool Policy Boundary",
        "- Agent: orchestrator",
        "- Channel: web",
        "- Entry point: flow",
        "- Allowed permission: read_only",
        "- Risk: low",
        "- Allowed tools: read_notes",
        "- Restricted tools: 1 omitted by policy",
        "",
      ].join("\n"),
    );
    expect(text).not.toContain("write_notes");
  });

  it("denies a network tool whose level fits when the channel grants less than write, and says so", () => {
    const fetcher: PolicedTool = { name: "fetch_url", permission: "read_only", network: true };
    const s = buildSession(
      "researcher",
      "webhook",
      "flow",
      { webhook: "read_only" },
      [tools[0]!, fetcher],
      [],
    );
    expect([s.isAllowed("read_notes"), s.isAllowed("fetch_url"), s.profile.networkAllowed]).toEqual([
      true,
      false,
      false,
    ]);
    expect(s.decisionFor("fetch_url")).toEqual({
      action: "deny",
      reason: "reaches the network, which channel webhook does not allow",
    });
    expect(renderToolPolicyBoundary(s, 2048)).toContain(
      "- Risk: low\n- Network access: not allowed on this channel; tools that reach the network are refused\n- Allowed tools: read_notes\n",
    );
    const cron = buildSession("researcher", "cron", "flow", { cron: "write" }, [fetcher], []);
    expect([cron.isAllowed("fetch_url"), cron.profile.networkAllowed]).toEqual([true, true]);
  });

  it("vector 7: a long boundary is cut to at most maxBytes of valid UTF-8", () => {
    const many: PolicedTool[] = Array.from({ length: 80 }, (_, i) => ({
      name: `long_tool_name_${i}_with_extra_context`,
      permission: "write" as const,
    }));
    many.push({ name: "lecture_ü_€_😀_notes", permission: "read_only" });
    const s = buildSession("agent_ü", "web", "flow", { web: "read_only" }, many, []);
    for (const max of [192, 100, 57, 20, 15, 3]) {
      const text = renderToolPolicyBoundary(s, max);
      const bytes = new TextEncoder().encode(text);
      expect(bytes.length).toBeLessThanOrEqual(max);
      expect(new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toBe(text);
    }
    expect(renderToolPolicyBoundary(s, 192).endsWith("\n[...truncated]")).toBe(true);
    expect(renderToolPolicyBoundary(s, 0)).toBe("");
  });

  it("vector 8: an unrestricted session renders nothing, with or without tools", () => {
    expect(renderToolPolicyBoundary(buildSession("a", "web", "flow", {}, [], []), 2048)).toBe("");
    const one = buildSession("a", "web", "flow", {}, [{ name: "write_notes", permission: "write" }], []);
    expect(renderToolPolicyBoundary(one, 2048)).toBe("");
  });
});

describe("session helpers and immutability", () => {
  it("shows the sentinel when restricted and nothing is allowed", () => {
    const s = buildSession("a", "email", "flow", { email: "none" }, tools, []);
    expect([...s.visibleToolNamesForPrompt()]).toEqual([NO_POLICY_ALLOWED_TOOLS]);
    const boundary = renderToolPolicyBoundary(s, 2048);
    expect(boundary).not.toContain("Allowed tools");
    expect(boundary).toContain("- Restricted tools: 3 omitted by policy");
  });

  it("freezes the session, its profile and its sets", () => {
    const s = buildSession("a", "web", "flow", { web: "read_only" }, tools, []);
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(s.profile)).toBe(true);
    expect(() => (s.allowedToolNames as Set<string>).add("run_script")).toThrow(TypeError);
    expect(() => (s.blockedToolNames as Set<string>).delete("run_script")).toThrow(TypeError);
    expect(() => (s.decisions as Map<string, unknown>).set("x", {})).toThrow(TypeError);
    expect(s.isAllowed("run_script")).toBe(false);
  });

  it("keeps the sets sorted whatever the input order", () => {
    const reversed = [...tools].reverse();
    const s = buildSession("a", "web", "flow", { web: "write" }, reversed, []);
    expect([...s.allowedToolNames]).toEqual(["read_notes", "write_notes"]);
    expect(s.capabilities.map((c) => c.name)).toEqual(["read_notes", "run_script", "write_notes"]);
  });

  it("builds identical sessions from identical inputs", () => {
    const a = buildSession("a", "web", "flow", { web: "write" }, tools, ["read_notes"]);
    const b = buildSession("a", "web", "flow", { web: "write" }, tools, ["read_notes"]);
    expect(renderToolPolicyBoundary(a, 2048)).toBe(renderToolPolicyBoundary(b, 2048));
    expect([...a.decisions]).toEqual([...b.decisions]);
  });

  it("treats an unparseable channel value as read_only", () => {
    const s = buildSession("a", "web", "flow", { web: "superuser" }, tools, []);
    expect(s.profile.allowedPermission).toBe("read_only");
  });
});

describe("parsePermissionLevel", () => {
  it.each([
    [" Read-Only ", "read_only"],
    ["READ_ONLY", "read_only"],
    ["read", "read_only"],
    ["readonly", "read_only"],
    ["None", "none"],
    ["write", "write"],
    ["EXEC", "execute"],
    ["execute", "execute"],
    ["danger", "dangerous"],
    ["Dangerous", "dangerous"],
  ])("parses %j as %s", (raw, level) => {
    expect(parsePermissionLevel(raw)).toBe(level);
  });

  it("returns undefined for anything else", () => {
    expect(parsePermissionLevel("admin")).toBeUndefined();
    expect(parsePermissionLevel(3)).toBeUndefined();
  });
});

describe("default channel ceilings", () => {
  it("seeds the safe defaults and lets sub-flows inherit the parent channel", () => {
    expect(DEFAULT_CHANNEL_CEILINGS).toEqual({
      email: "read_only",
      webhook: "read_only",
      // An error-flow run carries data from the failed run: as untrusted as a webhook's.
      error: "read_only",
      cron: "write",
      api: "write",
      manual: "execute",
    });
    expect(effectiveChannel("subflow", "webhook")).toBe("webhook");
    expect(effectiveChannel("subflow")).toBe("subflow");
    const s = buildSession("a", "subflow", "flow", DEFAULT_CHANNEL_CEILINGS, tools, []);
    expect(s.profile.allowedPermission).toBe("read_only");
    expect(
      buildSession("a", "error", "flow", DEFAULT_CHANNEL_CEILINGS, tools, []).profile.networkAllowed,
    ).toBe(false);
    expect(utf8Length("€")).toBe(3);
  });
});
