import { describe, expect, it } from "vitest";
import type { FlowNode } from "@switchyard/contracts/flow";
import { agentRefCheck } from "./agent-ref-check";

const node = (type: string, config: Record<string, unknown>, id = "ask"): FlowNode =>
  ({ id, type, typeVersion: 1, name: id, config, position: { x: 0, y: 0 }, onError: "stop" }) as FlowNode;

const known = new Map([
  ["researcher", {}],
  ["classifier", {}],
]);

describe("agentRefCheck", () => {
  it("names the node, the unknown ref and the loaded agents", () => {
    expect(agentRefCheck(known)(node("agent", { agent_ref: "support_triage" }))).toEqual([
      {
        code: "unknown_agent",
        message:
          'node "ask" field "agent_ref": no agent "support_triage" is loaded; known agents: classifier, researcher',
        nodeId: "ask",
        field: "agent_ref",
      },
    ]);
  });

  it("accepts a loaded agent", () => {
    expect(agentRefCheck(known)(node("agent", { agent_ref: "researcher" }))).toEqual([]);
  });

  it("says so when no agent is loaded at all", () => {
    expect(agentRefCheck(new Map())(node("agent", { agent_ref: "x" }))[0]?.message).toBe(
      'node "ask" field "agent_ref": no agent "x" is loaded; no agents are loaded (add one under agents/)',
    );
  });

  it("leaves other node types, expressions and empty refs to their own checks", () => {
    const check = agentRefCheck(known);
    expect(check(node("data.set", { agent_ref: "nope" }))).toEqual([]);
    expect(check(node("agent", { agent_ref: "=item.agent" }))).toEqual([]);
    expect(check(node("agent", {}))).toEqual([]);
  });
});
