/**
 * One agent run cannot fan out without bound: the tool calls of one model response run at most
 * `maxParallelToolCalls` at a time (the rest queue), calls past `maxToolCallsPerResponse` are refused
 * with an error the model sees, and delegated sub-agents running at once in one run are capped.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { request } from "../__tests__/harness";
import { defineAgents } from "../definitions/loader";
import { createOpenAiCompatibleProvider } from "../llm/openai-compatible";
import { type AgentRunnerOptions, createAgentRunner } from "../runner/create-agent-runner";
import { lastMessage, type ScriptedLlmServer, startScriptedLlmServer } from "../testing/scripted-llm-server";
import type { Tool } from "../tools/tool";

let server: ScriptedLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

let running = 0;
let maxRunning = 0;
const executed: number[] = [];
// Calls hold until four run at once (or every call of the response has started): the overlap is
// forced, not left to a timer. A limiter that let fewer run would hold them forever (the test fails).
let release: () => void = () => {};
let gate = new Promise<void>((r) => (release = r));
let started = 0;
const openGate = () => {
  gate = new Promise<void>((r) => (release = r));
  started = 0;
};
const slow: Tool = {
  name: "slow",
  description: "A look-up that takes a moment.",
  permission: "read_only",
  inputSchema: z.object({ n: z.number() }),
  async execute(args) {
    const { n } = args as { n: number };
    running++;
    started++;
    maxRunning = Math.max(maxRunning, running);
    if (running >= 4 || started >= total) release();
    await gate;
    running--;
    executed.push(n);
    return `result ${n}`;
  },
};

const defs = defineAgents(
  [
    { folder: "fan", toml: 'id = "fan"\nwhen_to_use = "t"\n[tools]\nnamed = ["slow"]', prompt: "FAN PROMPT" },
    {
      folder: "boss",
      toml: 'id = "boss"\nwhen_to_use = "t"\nagent_tier = "chat"\n[tools]\nnamed = []\n[subagents]\nallowlist = ["lead"]',
      prompt: "BOSS PROMPT",
    },
    {
      folder: "lead",
      toml: 'id = "lead"\nwhen_to_use = "t"\nagent_tier = "reasoning"\n[tools]\nnamed = []\n[subagents]\nallowlist = ["leaf"]',
      prompt: "LEAD PROMPT",
    },
    { folder: "leaf", toml: 'id = "leaf"\nwhen_to_use = "t"\n[tools]\nnamed = []', prompt: "LEAF PROMPT" },
  ],
  [{ name: "slow", permission: "read_only" }],
);

function runner(limits: Partial<AgentRunnerOptions> = {}) {
  return createAgentRunner({
    definitions: defs,
    tools: [slow],
    provider: createOpenAiCompatibleProvider({ baseUrl: server!.url, maxRetries: 0 }),
    modelForHint: () => "m",
    channelCeilings: { manual: "execute" },
    ...limits,
  });
}

/** One model response's tool calls; also how many may start, for the gate. */
let total = Number.POSITIVE_INFINITY;
const calls = (count: number) => {
  total = count;
  return Array.from({ length: count }, (_, i) => ({
    id: `c${i + 1}`,
    name: "slow",
    arguments: { n: i + 1 },
  }));
};

describe("fan-out limits of one agent run", () => {
  it("runs at most 4 tool calls of one response at a time, queueing the rest, answers in order", async () => {
    running = 0;
    maxRunning = 0;
    executed.length = 0;
    openGate();
    server = await startScriptedLlmServer([{ toolCalls: calls(6) }, { content: "done" }]);
    await runner().run(request({ agentRef: "fan", channel: "manual" }));
    expect(maxRunning).toBe(4);
    expect(executed.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    const tools = (server.requests[1]!.body.messages as { role: string; content: string }[]).filter(
      (m) => m.role === "tool",
    );
    expect(tools.map((m) => m.content)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `result ${n}`));
  });

  it("refuses tool calls past 16 in one response with an error the model sees, running none of them", async () => {
    executed.length = 0;
    openGate();
    server = await startScriptedLlmServer([{ toolCalls: calls(20) }, { content: "done" }]);
    const traces: { toolCalls: { name: string; outcome: string }[] }[] = [];
    await runner({ onTrace: (t) => traces.push(t as never) }).run(
      request({ agentRef: "fan", channel: "manual" }),
    );
    expect(executed).toHaveLength(16);
    expect(executed.every((n) => n <= 16)).toBe(true);
    const tools = (server.requests[1]!.body.messages as { role: string; content: string }[]).filter(
      (m) => m.role === "tool",
    );
    expect(tools.slice(16).map((m) => m.content)).toEqual(
      Array(4).fill(
        "Error: this call was not run: one response may make at most 16 tool calls. Make it again in a later step if you still need it.",
      ),
    );
    expect(traces[0]!.toolCalls.filter((c) => c.outcome === "refused")).toHaveLength(4);
  });

  it("refuses a delegation while the run already has its limit of sub-agents running", async () => {
    const step = (system: string | undefined, sawTool: boolean) => {
      if (system?.startsWith("LEAD PROMPT"))
        return sawTool
          ? { content: "lead done" }
          : { toolCalls: [{ name: "delegate_leaf", arguments: { prompt: "dig" } }] };
      if (system?.startsWith("LEAF PROMPT")) return { content: "leaf done" };
      return sawTool
        ? { content: "boss done" }
        : { toolCalls: [{ name: "delegate_lead", arguments: { prompt: "plan" } }] };
    };
    server = await startScriptedLlmServer((req) =>
      step(
        lastMessage(req, "system"),
        (req.body.messages as { role: string }[]).some((m) => m.role === "tool"),
      ),
    );
    await runner({ maxConcurrentSubagents: 1 }).run(request({ agentRef: "boss", channel: "manual" }));
    const systems = server.requests.map((r) => lastMessage(r, "system")!.split("\n")[0]);
    expect(systems).toEqual(["BOSS PROMPT", "LEAD PROMPT", "LEAD PROMPT", "BOSS PROMPT"]);
    expect(lastMessage(server.requests[2]!, "tool")).toBe(
      "Error: tool `delegate_leaf` failed: delegation to `leaf` refused: this agent run already has 1 sub-agent running (the limit); wait for an answer before delegating more",
    );

    // With the default limit the same tree runs the leaf.
    const before = server.requests.length;
    await runner().run(request({ agentRef: "boss", channel: "manual" }));
    expect(server.requests.slice(before).map((r) => lastMessage(r, "system")!.split("\n")[0])).toContain(
      "LEAF PROMPT",
    );
  });
});
