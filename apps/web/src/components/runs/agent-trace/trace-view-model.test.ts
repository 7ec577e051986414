import { describe, expect, it } from "vitest";
import type { AgentTurnTrace, ToolCallTrace } from "./trace-view-model";
import {
  argsPreview,
  childPlacement,
  delegationMode,
  incompleteLabel,
  isTurnTrace,
  refusedCalls,
  stopReason,
  timeline,
  turnTree,
} from "./trace-view-model";

const policy = {
  agentId: "orchestrator",
  channel: "webhook",
  entrypoint: "flow",
  riskLevel: "low",
  allowedPermission: "read_only",
  networkAllowed: false,
  allowed: ["memory_recall"],
  hidden: ["http_get"],
  denied: [],
} as unknown as AgentTurnTrace["policy"];

function turn(over: Partial<AgentTurnTrace> = {}): AgentTurnTrace {
  return {
    turnId: "t1",
    depth: 0,
    agentId: "orchestrator",
    agentTier: "chat",
    versionHash: "abc",
    mode: "llm",
    provider: "openai-compatible",
    model: "main-model",
    policy,
    llmCalls: [],
    toolCalls: [],
    stop: "finished",
    maxIterations: 8,
    truncation: null,
    usage: { promptTokens: 0, completionTokens: 0 },
    durationMs: 12,
    ...over,
  };
}
const tool = (iteration: number, name: string, over: Partial<ToolCallTrace> = {}): ToolCallTrace => ({
  iteration,
  id: `${name}-${iteration}`,
  name,
  args: {},
  decision: "allow",
  outcome: "executed",
  latencyMs: 1,
  ...over,
});
const llm = (iteration: number) => ({ iteration, model: "m", messages: [], tools: [], latencyMs: 5 });

describe("agent trace view model", () => {
  it("orders a turn as it happened: memory context, then each model call followed by its tool calls", () => {
    const t = turn({
      llmCalls: [llm(1), llm(2)],
      toolCalls: [tool(1, "memory_recall"), tool(1, "http_get"), tool(0, "memory_recall"), tool(2, "x")],
    });
    expect(
      timeline(t).map((e) => `${e.kind}:${e.iteration}${e.kind === "tool" ? `:${e.call.name}` : ""}`),
    ).toEqual([
      "tool:0:memory_recall",
      "llm:1",
      "tool:1:memory_recall",
      "tool:1:http_get",
      "llm:2",
      "tool:2:x",
    ]);
  });

  it("nests delegated turns under the turn that handed off, whatever order they were stored in", () => {
    const child = turn({ turnId: "c", parentTurnId: "p", depth: 1, agentId: "researcher" });
    const grandchild = turn({ turnId: "g", parentTurnId: "c", depth: 2, agentId: "classifier" });
    const parent = turn({ turnId: "p" });
    const tree = turnTree([grandchild, child, parent]);
    expect(tree.map((n) => n.turn.turnId)).toEqual(["p"]);
    expect(tree[0]!.children.map((n) => n.turn.turnId)).toEqual(["c"]);
    expect(tree[0]!.children[0]!.children.map((n) => n.turn.turnId)).toEqual(["g"]);
  });

  it("places each sub-agent turn under the call that started it, and keeps unlinked ones after the turn", () => {
    const parent = turn({
      turnId: "p",
      toolCalls: [
        tool(1, "delegate_scout", { childTurnId: "a", subagentSessionId: "sa-1", args: { blocking: false } }),
        tool(2, "continue_subagent", { childTurnId: "b", subagentSessionId: "sa-1", args: {} }),
      ],
    });
    const a = turn({ turnId: "a", parentTurnId: "p", subagentSessionId: "sa-1" });
    const b = turn({ turnId: "b", parentTurnId: "p", subagentSessionId: "sa-1" });
    const old = turn({ turnId: "o", parentTurnId: "p" });
    const [root] = turnTree([a, b, old, parent]);
    const { byCall, unlinked } = childPlacement(root!);
    expect([...byCall.keys()]).toEqual(["a", "b"]);
    expect(unlinked.map((n) => n.turn.turnId)).toEqual(["o"]);
    expect(parent.toolCalls.map(delegationMode)).toEqual(["background", "background"]);
    expect(delegationMode(tool(1, "delegate_scout", { subagentSessionId: "sa-2", args: {} }))).toBe("waited");
    expect(delegationMode(tool(1, "memory_recall"))).toBeNull();
  });

  it("names why a sub-agent came back incomplete", () => {
    expect(incompleteLabel(tool(1, "delegate_x", { incomplete: "iteration_limit" }))).toBe(
      "incomplete: the sub-agent hit its iteration limit",
    );
    expect(incompleteLabel(tool(1, "delegate_x"))).toBeNull();
  });

  it("picks out the refused calls", () => {
    const t = turn({
      toolCalls: [
        tool(1, "memory_recall"),
        tool(1, "http_get", { decision: "hide_from_prompt", outcome: "refused", refusal: "not allowed" }),
      ],
    });
    expect(refusedCalls(t).map((c) => c.name)).toEqual(["http_get"]);
  });

  it("says why a turn stopped, naming the iteration limit", () => {
    expect(stopReason(turn()).text).toBe("Finished: the model gave its final answer.");
    expect(stopReason(turn({ stop: "limit_stop", maxIterations: 3 }))).toEqual({
      tone: "warn",
      text: "Stopped at its iteration limit (3): the answer is a forced wrap-up without tools and may be incomplete.",
    });
    expect(stopReason(turn({ stop: "error", error: "provider said 500" })).text).toBe(
      "Failed: provider said 500",
    );
  });

  it("accepts only stored values with the shape the view draws", () => {
    expect(isTurnTrace(turn())).toBe(true);
    expect(isTurnTrace({ turnId: "x" })).toBe(false);
    expect(isTurnTrace(null)).toBe(false);
  });

  it("previews long arguments on one line", () => {
    expect(argsPreview({ q: "a".repeat(300) }, 20)).toBe(`{"q":"aaaaaaaaaaaaaa…`);
    expect(argsPreview("not json")).toBe("not json");
  });
});
