import { afterEach, describe, expect, it } from "vitest";
import { defineAgents } from "../definitions/loader";
import { createOpenAiCompatibleProvider } from "../llm/openai-compatible";
import type { AgentTurnTrace } from "../loop/trace";
import { DEFAULT_CHANNEL_CEILINGS } from "../policy/channels";
import { lastMessage, type ScriptedLlmServer, startScriptedLlmServer } from "../testing/scripted-llm-server";
import { type ActionCapabilities, createActionTools } from "../tools/actions";
import { BUILTIN_TOOL_CATALOG } from "../tools/tool";
import { createAgentRunner, type HostAgentRunRequest } from "./create-agent-runner";

let server: ScriptedLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Capabilities that only record what they were asked: whatever reaches them "happened". */
function recordingCapabilities() {
  const calls: { tool: string; args: unknown }[] = [];
  const cap: ActionCapabilities = {
    async httpRequest(req) {
      calls.push({ tool: "http_request", args: req });
      return { status: 201, headers: {}, body: { id: 7 } };
    },
    async sendEmail(mail) {
      calls.push({ tool: "send_email", args: mail });
      return { messageId: "<m1@test>", accepted: mail.to, rejected: [] };
    },
    async startFlow(flowId, items) {
      calls.push({ tool: "start_flow", args: { flowId, items } });
      return [{ done: true }];
    },
    async runCode(code, items) {
      calls.push({ tool: "run_code", args: { code, items } });
      return [{ total: 42 }];
    },
  };
  return { cap, calls };
}

const agents = defineAgents(
  [
    {
      folder: "responder",
      toml: 'id = "responder"\nwhen_to_use = "answers"\n[tools]\nnamed = ["send_email", "http_request"]',
      prompt: "You answer customers.",
    },
    {
      folder: "coder",
      toml: 'id = "coder"\nwhen_to_use = "runs code for a parent"\n[tools]\nnamed = ["run_code"]',
      prompt: "You run code.",
    },
    {
      folder: "lead",
      toml: 'id = "lead"\nwhen_to_use = "leads"\nagent_tier = "chat"\n[tools]\nnamed = []\n[subagents]\nallowlist = ["coder"]',
      prompt: "You delegate.",
    },
  ],
  BUILTIN_TOOL_CATALOG,
);

function runnerFor(s: ScriptedLlmServer) {
  const traces: AgentTurnTrace[] = [];
  const runner = createAgentRunner({
    definitions: agents,
    provider: createOpenAiCompatibleProvider({ baseUrl: s.url, apiKey: "k", maxRetries: 0 }),
    modelForHint: () => "m",
    channelCeilings: DEFAULT_CHANNEL_CEILINGS,
    onTrace: (t) => traces.push(t),
  });
  return { runner, traces };
}

const request = (
  o: Partial<HostAgentRunRequest> & Pick<HostAgentRunRequest, "agentRef">,
): HostAgentRunRequest => ({
  prompt: "Handle it.",
  inputContext: null,
  channel: "manual",
  timeoutMs: 30_000,
  signal: new AbortController().signal,
  ...o,
});

describe("step tools (the tools that act) through the runner", () => {
  it("hide before deny: a tool both outside the agent's list and above the ceiling is hidden, never offered, and its call gets the hidden refusal", async () => {
    server = await startScriptedLlmServer([
      {
        toolCalls: [
          { id: "c1", name: "run_code", arguments: { code: "return 1;" } },
          { id: "c2", name: "send_email", arguments: { to: "a@b.example", subject: "s", text: "t" } },
        ],
      },
      { content: "Not sent: refused by policy." },
    ]);
    const { runner, traces } = runnerFor(server);
    const { cap, calls } = recordingCapabilities();
    await runner.run(request({ agentRef: "responder", channel: "email", tools: createActionTools(cap) }));

    const policy = traces[0]!.policy;
    expect(policy.allowedPermission).toBe("read_only");
    // run_code needs execute (above read_only) and is not named: it is classified hidden, not denied.
    expect(policy.hidden).toContain("run_code");
    expect(policy.denied).toEqual(["http_request", "send_email"]);
    expect(server.requests[0]!.body.tools ?? []).toEqual([]);
    expect(lastMessage(server.requests[0]!, "system")).not.toContain("run_code");
    expect(traces[0]!.toolCalls.map((c) => [c.name, c.decision, c.outcome, c.reason])).toEqual([
      ["run_code", "hide_from_prompt", "refused", "not in the agent's visible tool list"],
      ["send_email", "deny", "refused", "requires write, channel ceiling is read_only"],
    ]);
    expect(calls).toEqual([]);
  });

  it("a manual run executes http_request and send_email with the arguments mapped for the host", async () => {
    server = await startScriptedLlmServer([
      {
        toolCalls: [
          {
            name: "http_request",
            arguments: {
              method: "PATCH",
              url: "https://crm.example/tickets/9",
              json: { state: "done" },
              auth: { type: "bearer", credential_id: "cred-crm" },
            },
          },
          { name: "send_email", arguments: { to: "ada@example.com", subject: "Re: hi", text: "Hello" } },
        ],
      },
      { content: "Sent to ada@example.com" },
    ]);
    const { runner, traces } = runnerFor(server);
    const { cap, calls } = recordingCapabilities();
    const res = await runner.run(request({ agentRef: "responder", tools: createActionTools(cap) }));

    expect(res.text).toBe("Sent to ada@example.com");
    expect(calls).toEqual([
      {
        tool: "http_request",
        args: {
          method: "PATCH",
          url: "https://crm.example/tickets/9",
          body: { type: "json", value: { state: "done" } },
          auth: { type: "bearer", credentialId: "cred-crm" },
        },
      },
      { tool: "send_email", args: { to: ["ada@example.com"], subject: "Re: hi", text: "Hello" } },
    ]);
    expect(traces[0]!.toolCalls.map((c) => c.result)).toEqual([
      'HTTP 201\n\n{\n  "id": 7\n}',
      'E-mail sent.\n{\n  "messageId": "<m1@test>",\n  "accepted": [\n    "ada@example.com"\n  ],\n  "rejected": []\n}',
    ]);
  });

  it("refuses http_request arguments with both a json and a text body, naming the field, and calls nothing", async () => {
    server = await startScriptedLlmServer([
      {
        toolCalls: [
          {
            name: "http_request",
            arguments: { method: "POST", url: "https://crm.example/x", json: {}, text: "also" },
          },
        ],
      },
      { content: "gave up" },
    ]);
    const { runner, traces } = runnerFor(server);
    const { cap, calls } = recordingCapabilities();
    await runner.run(request({ agentRef: "responder", tools: createActionTools(cap) }));
    expect(traces[0]!.toolCalls[0]).toMatchObject({
      outcome: "invalid_args",
      error:
        "Error: invalid arguments for `http_request`: text: give either json or text as the body, not both",
    });
    expect(calls).toEqual([]);
  });

  it("a delegated child gets the step's tools under the same channel: run_code runs on manual", async () => {
    server = await startScriptedLlmServer([
      { toolCalls: [{ name: "delegate_coder", arguments: { prompt: "Compute 2 * 21." } }] },
      { toolCalls: [{ name: "run_code", arguments: { code: "return { total: 2 * 21 };" } }] },
      { content: "42" },
      { content: "The total is 42." },
    ]);
    const { runner, traces } = runnerFor(server);
    const { cap, calls } = recordingCapabilities();
    const res = await runner.run(request({ agentRef: "lead", tools: createActionTools(cap) }));
    expect(res.text).toBe("The total is 42.");
    expect(calls).toEqual([{ tool: "run_code", args: { code: "return { total: 2 * 21 };", items: [] } }]);
    const child = traces.find((t) => t.agentId === "coder")!;
    expect(child.policy).toMatchObject({ channel: "manual", allowed: ["run_code"] });
  });

  it("refuses a step tool that would replace a runner tool of the same name", async () => {
    server = await startScriptedLlmServer([{ content: "never asked" }]);
    const { cap } = recordingCapabilities();
    const runner = createAgentRunner({
      definitions: agents,
      tools: createActionTools(cap).filter((t) => t.name === "send_email"),
      modelForHint: () => "m",
      channelCeilings: DEFAULT_CHANNEL_CEILINGS,
    });
    await expect(
      runner.run(request({ agentRef: "responder", tools: createActionTools(cap) })),
    ).rejects.toThrow("tool `send_email` is registered twice");
    expect(server.requests).toHaveLength(0);
  });
});
