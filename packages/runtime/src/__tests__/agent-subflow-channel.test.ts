import { type RecordedRequest, type ScriptedLlmServer, startScriptedLlmServer } from "@switchyard/agent";
import type { RunChannel } from "@switchyard/contracts/runs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectLlm, startTestHost, waitForRun } from "./test-host";

/**
 * A sub-flow inherits its parent run's channel for the agent tool policy (spec/POLICY.md), whether it is
 * started by an agent's `start_flow` tool or by a `flow.call` node: the child's agents get the parent's
 * ceiling, wider (manual → run_code runs) or narrower (api → run_code refused) than a bare `subflow` run.
 */

let t: Awaited<ReturnType<typeof startTestHost>>;
let llm: ScriptedLlmServer;
let childFlowId: string;

const chain = (first: string, second: string) => ({
  from: { node: first, port: "main" },
  to: { node: second, port: "main" },
});

const operatorStep = (id: string, prompt: string) => ({
  id,
  type: "agent",
  config: { agent_ref: "operator", prompt, input_context: "=item", on_limit: "return_partial" },
});

/** The parent's operator starts the child flow; the child's operator runs code; both then answer. */
function model(req: RecordedRequest) {
  const messages = req.body.messages as { role: string; content: string }[];
  const last = messages.at(-1)!;
  if (last.role === "tool") return { content: `answer after: ${last.content.slice(0, 60)}` };
  if (last.content.includes("Start the compute flow")) {
    return { toolCalls: [{ name: "start_flow", arguments: { flow_id: childFlowId, input: { n: 21 } } }] };
  }
  return {
    toolCalls: [
      { name: "run_code", arguments: { code: "return { total: items[0].n * 2 };", items: [{ n: 21 }] } },
    ],
  };
}

beforeEach(async () => {
  t = await startTestHost();
  llm = await startScriptedLlmServer(model);
  await connectLlm(t.host, { baseUrl: llm.url, models: { coding: "scripted-model" }, apiKey: "sk-test-key" });
  const child = await t.host.flows.create({
    name: "Compute",
    definition: {
      nodes: [
        { id: "in", type: "trigger.manual" },
        operatorStep("compute", "Compute the total of n times two."),
      ],
      edges: [chain("in", "compute")],
    },
  });
  childFlowId = child.id;
}, 60_000);
afterEach(async () => {
  await llm.close();
  await t.close();
});

interface ToolCall {
  name: string;
  decision: string;
  outcome: string;
  reason?: string;
  result?: string;
}
interface Turn {
  policy: { channel: string; allowedPermission: string };
  toolCalls: ToolCall[];
}

async function agentTurns(runId: string, nodeId: string) {
  const run = await waitForRun(t.host, runId, 45_000);
  const step = run.steps.find((s) => s.nodeId === nodeId)!;
  return { run, turns: (JSON.parse(step.logs!) as { agentTurns: Turn[] }).agentTurns };
}

async function childRun() {
  const runs = await t.host.runs.list({ flowId: childFlowId });
  expect(runs.runs).toHaveLength(1);
  return agentTurns(runs.runs[0]!.id, "compute");
}

async function startParent(definition: unknown, channel: RunChannel) {
  const parent = await t.host.flows.create({ name: "Parent", definition });
  const { runId } = await t.host.control.startRun(parent.id, { channel, payload: { n: 21 } });
  return runId;
}

const viaStartFlow = {
  nodes: [{ id: "start", type: "trigger.manual" }, operatorStep("op", "Start the compute flow with n = 21.")],
  edges: [chain("start", "op")],
};
const viaFlowCall = () => ({
  nodes: [
    { id: "start", type: "trigger.manual" },
    { id: "call", type: "flow.call", config: { flowId: childFlowId } },
  ],
  edges: [chain("start", "call")],
});

describe("a sub-flow inherits its parent run's channel", { timeout: 60_000 }, () => {
  it("start_flow from a manual run: the child's agent is policed as manual and its run_code runs", async () => {
    const runId = await startParent(viaStartFlow, "manual");
    const parent = await agentTurns(runId, "op");
    expect(parent.run.status).toBe("succeeded");
    const start = parent.turns[0]!.toolCalls[0]!;
    expect([start.name, start.decision, start.outcome]).toEqual(["start_flow", "allow", "executed"]);
    expect(start.result).toContain(`Flow ${childFlowId} finished.`);

    const child = await childRun();
    expect([child.run.channel, child.run.status]).toEqual(["subflow", "succeeded"]);
    expect(child.turns[0]!.policy).toMatchObject({ channel: "manual", allowedPermission: "execute" });
    const code = child.turns[0]!.toolCalls[0]!;
    expect([code.name, code.decision, code.outcome]).toEqual(["run_code", "allow", "executed"]);
    expect(JSON.parse(code.result!)).toEqual([{ total: 42 }]);
  });

  it("start_flow from an API run: start_flow (write) runs, the child's run_code (execute) is refused under the API ceiling", async () => {
    const runId = await startParent(viaStartFlow, "api");
    const parent = await agentTurns(runId, "op");
    expect(parent.turns[0]!.policy.channel).toBe("api");
    expect(parent.turns[0]!.toolCalls.map((c) => [c.name, c.outcome])).toEqual([["start_flow", "executed"]]);

    const child = await childRun();
    expect(child.run.channel).toBe("subflow");
    expect(child.turns[0]!.policy).toMatchObject({ channel: "api", allowedPermission: "write" });
    const code = child.turns[0]!.toolCalls[0]!;
    expect([code.name, code.decision, code.outcome, code.reason]).toEqual([
      "run_code",
      "deny",
      "refused",
      "requires execute, channel ceiling is write",
    ]);
  });

  it("flow.call from a manual run: the called flow's agent is policed as manual", async () => {
    const runId = await startParent(viaFlowCall(), "manual");
    expect((await waitForRun(t.host, runId, 45_000)).status).toBe("succeeded");
    const child = await childRun();
    expect(child.turns[0]!.policy.channel).toBe("manual");
    expect(child.turns[0]!.toolCalls.map((c) => [c.name, c.outcome])).toEqual([["run_code", "executed"]]);
  });

  it("flow.call from a cron run: the called flow's agent gets the cron ceiling, and run_code is refused", async () => {
    const runId = await startParent(viaFlowCall(), "cron");
    expect((await waitForRun(t.host, runId, 45_000)).status).toBe("succeeded");
    const child = await childRun();
    expect(child.turns[0]!.policy).toMatchObject({ channel: "cron", allowedPermission: "write" });
    expect(child.turns[0]!.toolCalls.map((c) => [c.name, c.decision, c.reason])).toEqual([
      ["run_code", "deny", "requires execute, channel ceiling is write"],
    ]);
  });
});
