import { afterEach, describe, expect, it } from "vitest";
import { loadShipped, TEST_CATALOG } from "../__tests__/fixtures";
import { API_KEY, harness, request } from "../__tests__/harness";
import { defineAgents } from "../definitions/loader";
import { LIMIT_WRAP_UP_MESSAGE } from "../loop/agent-loop";
import { lastMessage, type ScriptedLlmServer, startScriptedLlmServer } from "../testing/scripted-llm-server";
import { createAgentRunner } from "./create-agent-runner";
import { NO_PROVIDER_MESSAGE } from "./turn";

const shipped = await loadShipped();
let server: ScriptedLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function extraAgent(id: string, toml: string) {
  const extra = defineAgents(
    [{ folder: id, toml: `id = "${id}"\nwhen_to_use = "test agent"\n${toml}`, prompt: `You are ${id}.` }],
    TEST_CATALOG,
  );
  return new Map([...shipped, ...extra]);
}

describe("flow_memory_agent through the runner and the scripted LLM server", () => {
  it("executes an allowed memory_recall, refuses a write tool, and returns the source-tagged answer", async () => {
    server = await startScriptedLlmServer([
      {
        toolCalls: [
          { id: "r1", name: "memory_recall", arguments: { query: "Dana Whitfield" } },
          { id: "w1", name: "send_email", arguments: { to: "dana@harbor.example", body: "hi" } },
        ],
        usage: { promptTokens: 100, completionTokens: 20 },
      },
      {
        content: "Dana Whitfield is the procurement lead at Harbor Logistics (people).",
        usage: { promptTokens: 150, completionTokens: 30 },
      },
    ]);
    const h = harness({ definitions: shipped, server });
    const res = await h.runner.run(request({ agentRef: "flow_memory_agent" }));

    expect(res).toEqual({
      text: "Dana Whitfield is the procurement lead at Harbor Logistics (people).",
      agent_ref: "flow_memory_agent",
      stop: "finished",
      usage: { promptTokens: 250, completionTokens: 50 },
    });
    expect(h.writeCalls()).toBe(0);
    expect(h.memory.calls).toEqual([
      { name: "memory_recall", args: { query: "Dana Whitfield", namespace: "global", limit: 5 } },
    ]);

    const [first, second] = server.requests;
    expect(first!.body.model).toBe("model-for-burst");
    expect(first!.body.temperature).toBe(0.3);
    expect(first!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "memory_flavour",
      "memory_hybrid_search",
      "memory_recall",
    ]);
    expect(lastMessage(first!, "system")).not.toContain("send_email");
    expect(second!.body.messages.at(-2)).toMatchObject({ role: "tool", tool_call_id: "r1" });
    expect(second!.body.messages.at(-2).content).toContain("- [person] Dana Whitfield: procurement lead");
    expect(second!.body.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "w1" });
    expect(second!.body.messages.at(-1).content).toContain("refused by policy and nothing was executed");

    expect(h.traces).toHaveLength(1);
    const t = h.traces[0]!;
    expect(t).toMatchObject({
      agentId: "flow_memory_agent",
      versionHash: shipped.get("flow_memory_agent")!.versionHash,
      mode: "llm",
      provider: "openai-compatible",
      model: "model-for-burst",
      stop: "finished",
      truncation: null,
      usage: { promptTokens: 250, completionTokens: 50 },
      policy: {
        agentId: "flow_memory_agent",
        channel: "webhook",
        entrypoint: "flow",
        allowedPermission: "read_only",
        riskLevel: "low",
        allowed: ["memory_flavour", "memory_hybrid_search", "memory_recall"],
      },
    });
    expect(t.policy.hidden).toEqual(expect.arrayContaining(["memory_tree", "send_email", "run_script"]));
    expect(t.toolCalls.map((c) => [c.name, c.decision, c.outcome])).toEqual([
      ["memory_recall", "allow", "executed"],
      ["send_email", "hide_from_prompt", "refused"],
    ]);
    expect(t.llmCalls).toHaveLength(2);
    expect(t.llmCalls[0]!.messages[1]).toMatchObject({ role: "user" });
    expect(t.llmCalls[1]!.usage).toEqual({ promptTokens: 150, completionTokens: 30 });
    expect(typeof t.llmCalls[0]!.latencyMs).toBe("number");
  });

  it("denies a listed write tool on a read_only channel and runs it on manual (execute)", async () => {
    const defs = extraAgent("mailer", '[tools]\nnamed = ["send_email", "memory_recall"]');
    const script = () => [
      { toolCalls: [{ id: "w", name: "send_email", arguments: { to: "x@example.org" } }] },
      { content: "done" },
    ];
    server = await startScriptedLlmServer([...script(), ...script()]);
    const h = harness({ definitions: defs, server });
    await h.runner.run(request({ agentRef: "mailer", channel: "email" }));
    expect(h.writes.send_email.calls).toHaveLength(0);
    expect(h.traces[0]!.toolCalls[0]).toMatchObject({
      decision: "deny",
      outcome: "refused",
      reason: "requires write, channel ceiling is read_only",
    });
    expect(h.traces[0]!.policy.denied).toEqual(["send_email"]);
    expect(
      server.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name),
    ).toEqual(["memory_recall"]);

    await h.runner.run(request({ agentRef: "mailer", channel: "manual" }));
    expect(h.writes.send_email.calls).toEqual([{ to: "x@example.org" }]);
    expect(h.traces[1]!.toolCalls[0]).toMatchObject({
      decision: "allow",
      outcome: "executed",
      result: "send_email done",
    });
  });

  it("caps a 12 000-character answer at 4000 characters, marker included, and records the original length", async () => {
    const answer = `${"😀".repeat(3999)}${"x".repeat(8001)}`;
    server = await startScriptedLlmServer([{ content: answer }]);
    const h = harness({ definitions: shipped, server });
    const res = await h.runner.run(request({ agentRef: "flow_memory_agent" }));
    expect(res.text).toBe(`${"😀".repeat(3985)}\n[...truncated]`);
    expect([...res.text]).toHaveLength(4000);
    expect(h.traces[0]!.truncation).toEqual({ limit: 4000, originalLength: 12_000 });
  });

  it("stops at the iteration cap with limit_stop after one tool-less wrap-up call", async () => {
    const defs = extraAgent("looper", 'max_iterations = 2\n[tools]\nnamed = ["memory_recall"]');
    server = await startScriptedLlmServer((req) =>
      req.body.tools
        ? { toolCalls: [{ name: "memory_recall", arguments: { query: "Harbor" } }] }
        : { content: "partial answer (memory)" },
    );
    const h = harness({ definitions: defs, server });
    const res = await h.runner.run(request({ agentRef: "looper" }));
    expect(res).toMatchObject({ text: "partial answer (memory)", stop: "limit_stop", maxIterations: 2 });
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]!.body.tools).toBeUndefined();
    expect(lastMessage(server.requests[2]!, "user")).toBe(LIMIT_WRAP_UP_MESSAGE);
    expect(h.traces[0]!).toMatchObject({ stop: "limit_stop", maxIterations: 2 });
  });

  it("leaves json unset instead of failing when a json answer after the limit is prose", async () => {
    const defs = extraAgent("looper", 'max_iterations = 1\n[tools]\nnamed = ["memory_recall"]');
    server = await startScriptedLlmServer((req) =>
      req.body.tools
        ? { toolCalls: [{ name: "memory_recall", arguments: { query: "Harbor" } }] }
        : { content: "I ran out of steps." },
    );
    const h = harness({ definitions: defs, server });
    const res = await h.runner.run(request({ agentRef: "looper", responseFormat: { type: "json" } }));
    expect(res).toMatchObject({ text: "I ran out of steps.", stop: "limit_stop", maxIterations: 1 });
    expect(res.json).toBeUndefined();
  });

  it("lets an extended agent go past max_iterations up to 50", async () => {
    server = await startScriptedLlmServer((_req, i) =>
      i < 12
        ? { toolCalls: [{ name: "memory_recall", arguments: { query: `Harbor ${i}` } }] }
        : { content: "enough (memory)" },
    );
    const h = harness({ definitions: shipped, server });
    const res = await h.runner.run(request({ agentRef: "flow_memory_agent" }));
    expect(res.stop).toBe("finished");
    expect(server.requests).toHaveLength(13);
  });

  it("returns invalid arguments and unknown tools to the model as errors without executing anything", async () => {
    server = await startScriptedLlmServer([
      {
        toolCalls: [
          { id: "a", name: "memory_recall", arguments: "{not json" },
          { id: "b", name: "memory_recall", arguments: { query: "" } },
          { id: "c", name: "people_list", arguments: {} },
        ],
      },
      { content: "No matching memory, threads, or contacts found for the sender." },
    ]);
    const h = harness({ definitions: shipped, server });
    await h.runner.run(request({ agentRef: "flow_memory_agent" }));
    expect(h.memory.calls).toHaveLength(0);
    const tools = server.requests[1]!.body.messages.filter((m: { role: string }) => m.role === "tool");
    expect(tools.map((m: { content: string }) => m.content)).toEqual([
      "Error: the arguments for `memory_recall` are not valid JSON. Call it again with a JSON object that matches its schema.",
      "Error: invalid arguments for `memory_recall`: query: query cannot be empty",
      "Tool `people_list` is not available in this run; the call was refused by policy and nothing was executed. Continue with the tools you have.",
    ]);
    expect(h.traces[0]!.toolCalls.map((c) => [c.outcome, c.decision])).toEqual([
      ["invalid_args", "allow"],
      ["invalid_args", "allow"],
      ["refused", "unknown"],
    ]);
    expect(h.traces[0]!.toolCalls[0]!.args).toBe("{not json");
  });
});

describe("runner limits, errors and secrets", () => {
  it("times out at the smaller of the node timeout and the definition's timeout_secs", async () => {
    server = await startScriptedLlmServer(() => ({ hang: true }));
    const defs = extraAgent("slow", "timeout_secs = 1");
    const h = harness({ definitions: defs, server });
    await expect(h.runner.run(request({ agentRef: "flow_memory_agent", timeoutMs: 150 }))).rejects.toThrow(
      "agent `flow_memory_agent` timed out after 150 ms",
    );
    await expect(h.runner.run(request({ agentRef: "slow", timeoutMs: 60_000 }))).rejects.toThrow(
      "agent `slow` timed out after 1000 ms",
    );
    expect(h.traces.map((t) => t.stop)).toEqual(["timeout", "timeout"]);
  });

  it("stops when the run is cancelled and records the abort", async () => {
    const ac = new AbortController();
    // Cancelled while the model is answering: the abort comes once the request has reached the server.
    server = await startScriptedLlmServer(() => {
      setImmediate(() => ac.abort(new Error("run cancelled")));
      return { hang: true };
    });
    const h = harness({ definitions: shipped, server });
    const pending = h.runner.run(request({ agentRef: "flow_memory_agent", signal: ac.signal }));
    await expect(pending).rejects.toThrow("run cancelled");
    expect(h.traces[0]!.stop).toBe("aborted");
  });

  it("fails an unknown agent_ref with the validation message", async () => {
    const h = harness({ definitions: shipped });
    await expect(h.runner.run(request({ agentRef: "ghost" }))).rejects.toThrow("unknown agent_ref 'ghost'");
  });

  it("refuses non-retrieval agents when no provider is configured", async () => {
    const h = harness({ definitions: shipped });
    await expect(h.runner.run(request({ agentRef: "drafter" }))).rejects.toThrow(NO_PROVIDER_MESSAGE);
    expect(NO_PROVIDER_MESSAGE).toBe("no LLM provider configured — set it in Settings › Models");
    expect(h.traces[0]!.stop).toBe("error");
  });

  it("parses JSON answers and refuses prose when JSON was asked for", async () => {
    server = await startScriptedLlmServer([
      { content: '```json\n{"label":"billing","confidence":0.9,"reason":"invoice"}\n```' },
      { content: "It is billing." },
    ]);
    const h = harness({ definitions: shipped, server });
    const res = await h.runner.run(request({ agentRef: "classifier", responseFormat: { type: "json" } }));
    expect(res.json).toEqual({ label: "billing", confidence: 0.9, reason: "invoice" });
    expect(lastMessage(server.requests[0]!, "user")).toContain("Respond with a single JSON object only");
    await expect(
      h.runner.run(request({ agentRef: "classifier", responseFormat: { type: "json" } })),
    ).rejects.toThrow(
      "agent `classifier` was asked for JSON but answered with text that is not valid JSON: It is billing.",
    );
  });

  it("uses the request's model override and builds byte-identical system prompts for identical runs", async () => {
    server = await startScriptedLlmServer([{ content: "a" }, { content: "b" }]);
    const h = harness({ definitions: shipped, server });
    await h.runner.run(request({ agentRef: "flow_memory_agent", model: "override-model" }));
    await h.runner.run(request({ agentRef: "flow_memory_agent" }));
    expect(server.requests[0]!.body.model).toBe("override-model");
    expect(lastMessage(server.requests[0]!, "system")).toBe(lastMessage(server.requests[1]!, "system"));
    expect(lastMessage(server.requests[0]!, "system")).toContain("## PROFILE.md\nName: Sam Rivera");
  });

  it("keeps API keys out of traces even when a tool echoes one", async () => {
    const defs = extraAgent("leaky", '[tools]\nnamed = ["memory_recall"]');
    server = await startScriptedLlmServer([
      { toolCalls: [{ name: "memory_recall", arguments: { query: `key ${API_KEY}` } }] },
      { content: `the key is ${API_KEY}` },
    ]);
    const h = harness({ definitions: defs, server });
    const res = await h.runner.run(request({ agentRef: "leaky", channel: "manual" }));
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(res.text).toContain(API_KEY); // the answer itself is the flow's data, not a trace
    const serialised = JSON.stringify(h.traces);
    expect(serialised).not.toContain(API_KEY);
    expect(serialised).toContain("[redacted]");
  });
});

describe("concurrency", () => {
  it("never runs more agent steps at once than the limit", async () => {
    let inFlight = 0;
    let peak = 0;
    const waiting: (() => void)[] = [];
    const runner = createAgentRunner({
      definitions: shipped,
      provider: {
        name: "gated",
        chat: () =>
          new Promise((resolve) => {
            inFlight++;
            peak = Math.max(peak, inFlight);
            waiting.push(() => {
              inFlight--;
              resolve({ content: "ok", toolCalls: [], finishReason: "stop" });
            });
          }),
      },
      modelForHint: () => "m",
      channelCeilings: {},
      concurrency: 2,
    });
    let settled = 0;
    const runs = Array.from({ length: 5 }, () =>
      runner.run(request({ agentRef: "classifier" })).finally(() => settled++),
    );
    const tick = () => new Promise((r) => setImmediate(r));
    while (settled < 5) {
      for (let i = 0; i < 5; i++) await tick();
      expect(inFlight).toBeLessThanOrEqual(2);
      expect(runner.active).toBeLessThanOrEqual(2);
      waiting.shift()?.();
    }
    const results = await Promise.all(runs);
    expect(results.every((r) => r.text === "ok")).toBe(true);
    expect(peak).toBe(2);
    expect(runner.active).toBe(0);
    expect(runner.queued).toBe(0);
  });
});
