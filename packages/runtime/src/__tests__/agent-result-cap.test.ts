/** #19 acceptance 5: a capped agent answer fits max_result_chars, marker included, through a whole flow run. */
import { startScriptedLlmServer } from "@switchyard/agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentWebhookFlow, connectLlm, startTestHost, waitForRun } from "./test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

const flow = agentWebhookFlow("long", "context", {
  agent_ref: "flow_memory_agent",
  prompt: "Summarise everything.",
});

describe("flow_memory_agent's max_result_chars in a flow run", () => {
  it("leaves a 12 000-character answer at 4000 characters, marker included, and traces the original length", async () => {
    // Emoji straddle the cut: characters are code points, and no surrogate pair is split.
    const answer = `${"😀".repeat(3990)}${"x".repeat(8010)}`;
    const llm = await startScriptedLlmServer([{ content: answer }]);
    try {
      await connectLlm(t.host, {
        baseUrl: llm.url,
        models: { burst: "scripted-model" },
        apiKey: "sk-test-1234",
      });
      const { id } = await t.host.flows.create({ name: "Long answer", definition: flow });
      await t.host.control.setActive(id, true);

      const res = await fetch(`${t.url}/hooks/long`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(200);
      const expected = `${"😀".repeat(3985)}\n[...truncated]`;
      expect(((await res.json()) as { text: string }).text).toBe(expected);

      const run = await waitForRun(t.host, res.headers.get("x-switchyard-run-id")!);
      const step = run.steps.find((s) => s.nodeId === "context")!;
      const [item] = (JSON.parse(step.output!) as { main: { json: { text: string } }[] }).main;
      expect(item!.json.text).toBe(expected);
      expect([...item!.json.text]).toHaveLength(4000);
      const turns = (JSON.parse(step.logs!) as { agentTurns: { truncation: unknown }[] }).agentTurns;
      expect(turns[0]!.truncation).toEqual({ limit: 4000, originalLength: 12_000 });
    } finally {
      await llm.close();
    }
  });
});
