/** Builds a runner wired to the scripted LLM server, fake memory, recording write tools and a trace list. */
import type { AgentRunRequest } from "../contract";
import type { AgentDefinition } from "../definitions/schema";
import { createOpenAiCompatibleProvider } from "../llm/openai-compatible";
import type { AgentTurnTrace } from "../loop/trace";
import { DEFAULT_CHANNEL_CEILINGS } from "../policy/channels";
import { type AgentRunnerOptions, createAgentRunner } from "../runner/create-agent-runner";
import type { ScriptedLlmServer } from "../testing/scripted-llm-server";
import { fakeMemoryTools, recordingTool } from "./fixtures";

export const API_KEY = "sk-live-TOPSECRET-4242";

export function harness(opts: {
  definitions: ReadonlyMap<string, AgentDefinition> | (() => ReadonlyMap<string, AgentDefinition>);
  server?: ScriptedLlmServer;
  channelCeilings?: AgentRunnerOptions["channelCeilings"];
  concurrency?: number;
  maxRetries?: number;
}) {
  const memory = fakeMemoryTools();
  const writes = {
    send_email: recordingTool("send_email", "write"),
    delete_memory: recordingTool("delete_memory", "write"),
    run_script: recordingTool("run_script", "execute"),
  };
  const traces: AgentTurnTrace[] = [];
  const hints: (string | undefined)[] = [];
  const runner = createAgentRunner({
    definitions: opts.definitions,
    tools: Object.values(writes),
    memory: {
      tools: memory.tools,
      readUserFiles: async () => ({
        profile: "Name: Sam Rivera\nRole: account manager",
        memory: "Key account: Harbor Logistics.",
      }),
    },
    ...(opts.server
      ? {
          provider: createOpenAiCompatibleProvider({
            baseUrl: opts.server.url,
            apiKey: API_KEY,
            maxRetries: opts.maxRetries ?? 0,
            initialBackoffMs: 1,
          }),
        }
      : {}),
    modelForHint: (hint) => {
      hints.push(hint);
      return `model-for-${hint ?? "default"}`;
    },
    channelCeilings: opts.channelCeilings ?? DEFAULT_CHANNEL_CEILINGS,
    concurrency: opts.concurrency ?? 8,
    onTrace: (t) => traces.push(t),
    redact: [API_KEY],
  });
  const writeCalls = () => Object.values(writes).reduce((n, t) => n + t.calls.length, 0);
  return { runner, memory, writes, writeCalls, traces, hints };
}

export function request(
  overrides: Partial<AgentRunRequest> & Pick<AgentRunRequest, "agentRef">,
): AgentRunRequest {
  return {
    prompt: "Who is the sender and what do we know about them?",
    inputContext: { from: "dana@harbor.example", subject: "Renewal" },
    channel: "webhook",
    timeoutMs: 30_000,
    signal: new AbortController().signal,
    ...overrides,
  };
}
