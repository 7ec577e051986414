/** flow_memory_agent over the real @switchyard/memory store (temp SQLite file), with and without an LLM. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryTools, type MemoryService, openMemory, readUserFiles } from "@switchyard/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadShipped } from "../__tests__/fixtures";
import { request } from "../__tests__/harness";
import { createOpenAiCompatibleProvider } from "../llm/openai-compatible";
import type { AgentTurnTrace } from "../loop/trace";
import { DEFAULT_CHANNEL_CEILINGS } from "../policy/channels";
import { lastMessage, startScriptedLlmServer } from "../testing/scripted-llm-server";
import { createAgentRunner } from "./create-agent-runner";

const shipped = await loadShipped();
let dir: string;
let memory: MemoryService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agent-memory-"));
  memory = openMemory({ file: join(dir, "memory.db"), log: () => {} });
  await memory.ingest.add({
    kind: "person",
    key: "Dana Whitfield",
    content: "Procurement lead at Harbor Logistics. Prefers e-mail.",
  });
  await memory.ingest.add({
    key: "INV-2291",
    content: "Harbor Logistics invoice disputed in March, settled at 4,200 EUR.",
  });
  memory.ingest.setProfile("Name: Sam Rivera\nRole: account manager for Harbor Logistics");
});
afterAll(async () => {
  memory.close();
  await rm(dir, { recursive: true, force: true });
});

function runnerWith(provider?: ReturnType<typeof createOpenAiCompatibleProvider>) {
  const traces: AgentTurnTrace[] = [];
  const runner = createAgentRunner({
    definitions: shipped,
    memory: { tools: createMemoryTools(memory.reader), readUserFiles: () => readUserFiles(memory.reader) },
    ...(provider ? { provider } : {}),
    modelForHint: () => "m",
    channelCeilings: DEFAULT_CHANNEL_CEILINGS,
    onTrace: (t) => traces.push(t),
  });
  return { runner, traces };
}

describe("flow_memory_agent with the real memory service", () => {
  it("answers in retrieval-only mode with source-tagged facts from the store", async () => {
    const { runner, traces } = runnerWith();
    const res = await runner.run(
      request({
        agentRef: "flow_memory_agent",
        prompt: "Dana Whitfield Harbor Logistics",
        inputContext: null,
      }),
    );
    expect(res.text).toContain(
      "Dana Whitfield: Procurement lead at Harbor Logistics. Prefers e-mail. (people)",
    );
    expect(res.text).toContain("(memory)");
    expect([...res.text].length).toBeLessThanOrEqual(4000);
    expect(traces[0]!.toolCalls.every((c) => c.outcome === "executed")).toBe(true);
  });

  it("lets the model call memory_hybrid_search and injects PROFILE.md into the system prompt", async () => {
    const server = await startScriptedLlmServer([
      {
        toolCalls: [
          { name: "memory_hybrid_search", arguments: { query: "Harbor invoice", namespace: "global" } },
        ],
      },
      { content: "INV-2291 was settled at 4,200 EUR (memory)." },
    ]);
    try {
      const { runner, traces } = runnerWith(
        createOpenAiCompatibleProvider({ baseUrl: server.url, maxRetries: 0 }),
      );
      const res = await runner.run(request({ agentRef: "flow_memory_agent" }));
      expect(res.text).toBe("INV-2291 was settled at 4,200 EUR (memory).");
      expect(lastMessage(server.requests[0]!, "system")).toContain("## PROFILE.md\nName: Sam Rivera");
      expect(lastMessage(server.requests[1]!, "tool")).toMatch(
        /^Found \d+ results \(mode=balanced\):\n.*INV-2291/s,
      );
      expect(traces[0]!.toolCalls[0]).toMatchObject({ name: "memory_hybrid_search", outcome: "executed" });
    } finally {
      await server.close();
    }
  });
});
