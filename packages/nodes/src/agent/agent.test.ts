import type { AgentRunner, AgentRunRequest, AgentRunResult } from "@switchyard/engine";
import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { agentNode } from "./agent";
import { executeNode } from "../__tests__/execute-node";

function runner(answer: (req: AgentRunRequest) => Promise<AgentRunResult>) {
  const requests: AgentRunRequest[] = [];
  const agents: AgentRunner = {
    run: (req) => {
      requests.push(req);
      return answer(req);
    },
  };
  return { agents, requests };
}

const base = { agent_ref: "triage", prompt: "Classify it.", input_context: { ticket: "crash on save" } };
const run = (config: Record<string, unknown>, agents?: AgentRunner) =>
  executeNode(agentNode, {
    config: { ...base, ...config } as never,
    input: items({}),
    ctx: fakeCtx(agents ? { agents } : {}),
  });

describe("agent", () => {
  it("calls the runner with the spec's fields and outputs text, agent_ref, stop and usage", async () => {
    const { agents, requests } = runner(async () => ({
      text: "bug",
      agent_ref: "triage",
      stop: "finished",
      usage: { promptTokens: 10, completionTokens: 1 },
    }));
    const out = await run({ model: "small" }, agents);
    expect(out).toEqual({
      items: [
        {
          json: {
            text: "bug",
            agent_ref: "triage",
            stop: "finished",
            usage: { promptTokens: 10, completionTokens: 1 },
          },
        },
      ],
    });
    expect(requests[0]).toMatchObject({
      agentRef: "triage",
      prompt: "Classify it.",
      inputContext: { ticket: "crash on save" },
      channel: "manual",
      responseFormat: { type: "text" },
      model: "small",
      timeoutMs: 240_000,
    });
  });

  it("outputs the parsed JSON for response_format json, passing the schema", async () => {
    const schema = { type: "object", properties: { label: { type: "string" } } };
    const { agents, requests } = runner(async () => ({
      text: '```json\n{"label":"bug"}\n```',
      agent_ref: "triage",
      stop: "finished",
    }));
    expect(await run({ response_format: "json", json_schema: schema }, agents)).toEqual({
      items: [{ json: { label: "bug" } }],
    });
    expect(requests[0]?.responseFormat).toEqual({ type: "json", schema });
  });

  it("wraps a non-object JSON answer as value", async () => {
    const { agents } = runner(async () => ({ text: "[1,2]", agent_ref: "triage", stop: "finished" }));
    expect(await run({ response_format: "json" }, agents)).toEqual({ items: [{ json: { value: [1, 2] } }] });
  });

  it("fails with agent_failed when a JSON answer is prose", async () => {
    const { agents } = runner(async () => ({ text: "It is a bug.", agent_ref: "triage", stop: "finished" }));
    const err = await run({ response_format: "json" }, agents).catch((e) => e);
    expect(err).toMatchObject({
      code: "agent_failed",
      message: 'agent "triage" did not answer with JSON',
      retryable: true,
    });
  });

  it("fails by default when the agent stopped at its iteration limit, naming the agent and the limit", async () => {
    const { agents } = runner(async () => ({
      text: "partial",
      agent_ref: "triage",
      stop: "limit_stop",
      maxIterations: 8,
    }));
    const err = await run({}, agents).catch((e) => e);
    expect(err).toMatchObject({
      code: "agent_failed",
      message:
        'agent "triage" stopped at its iteration limit (8) without a final answer; set on_limit to "return_partial" to pass on its partial answer',
      nodeId: "n1",
    });
  });

  it("passes the partial answer on, marked limit_stop, when on_limit is return_partial", async () => {
    const { agents } = runner(async () => ({
      text: "partial",
      agent_ref: "triage",
      stop: "limit_stop",
      maxIterations: 8,
    }));
    const out = await run({ on_limit: "return_partial" }, agents);
    expect(out).toEqual({ items: [{ json: { text: "partial", agent_ref: "triage", stop: "limit_stop" } }] });
  });

  it("refuses an on_limit value it does not know", async () => {
    const { agents } = runner(async () => ({ text: "x", agent_ref: "triage", stop: "finished" }));
    const err = await run({ on_limit: "ignore" }, agents).catch((e) => e);
    expect(err).toMatchObject({ code: "config_invalid" });
    expect(String(err.message)).toContain("on_limit");
  });

  it("fails with agent_failed carrying the runner's message", async () => {
    const { agents } = runner(async () => {
      throw new Error("unknown agent_ref 'triage'");
    });
    const err = await run({}, agents).catch((e) => e);
    expect(err).toMatchObject({
      code: "agent_failed",
      message: "agent \"triage\" failed: unknown agent_ref 'triage'",
    });
  });

  it("reports cancellation when the run is cancelled mid-call", async () => {
    const { agents, requests } = runner(async (req) => {
      await new Promise((_, reject) =>
        req.signal.addEventListener("abort", () => reject(new Error("aborted"))),
      );
      throw new Error("unreachable");
    });
    const ac = new AbortController();
    const pending = executeNode(agentNode, {
      config: base,
      input: [],
      ctx: fakeCtx({ agents, signal: ac.signal }),
    }).catch((e) => e);
    await Promise.resolve();
    ac.abort();
    expect(await pending).toMatchObject({ code: "cancelled", message: "agent step cancelled" });
    expect(requests).toHaveLength(1);
  });

  it("refuses timeouts outside 10–600 seconds", async () => {
    const err = await run({ timeout_secs: 5 }).catch((e) => e);
    expect(err).toMatchObject({
      code: "config_invalid",
      message: 'node "n1" field "timeout_secs": Too small: expected number to be >=10',
    });
  });

  it("fails with not_configured without an agent runner", async () => {
    const err = await run({}).catch((e) => e);
    expect(err).toMatchObject({ code: "not_configured", message: "Agents is not available to this node" });
  });
});
