import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AGENTS_DIR, loadShipped, TEST_CATALOG } from "../__tests__/fixtures";
import { harness, request } from "../__tests__/harness";
import { AgentDefinitionError, defineAgents } from "../definitions/loader";
import type { AgentDefinition } from "../definitions/schema";
import { renderHandoff } from "../prompt/handoff";
import { lastMessage, type ScriptedLlmServer, startScriptedLlmServer } from "../testing/scripted-llm-server";

const shipped = await loadShipped();
let server: ScriptedLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const envelope = {
  prompt: "Find out who Dana Whitfield is and how she prefers to be contacted.",
  objective: "Address the renewal reply correctly",
  evidence: ["From: dana@harbor.example", "Subject: Renewal"],
  constraints: ["Use memory only"],
  must_not_assume: ["that Dana is the decision maker"],
  expected_output: "Two sentences with source tags.",
  citation_requirement: "retrieval_hits",
  blocking: true,
};

const toolNames = (req: ScriptedLlmServer["requests"][number]) =>
  (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);

describe("orchestrator delegation", () => {
  it("hands off to a worker with the envelope; the child receives the exact rendered Task text", async () => {
    server = await startScriptedLlmServer([
      {
        toolCalls: [{ id: "d1", name: "retrieve_flow_context", arguments: envelope }],
        usage: { promptTokens: 1, completionTokens: 1 },
      },
      {
        content: "Dana Whitfield leads procurement at Harbor Logistics (people).",
        usage: { promptTokens: 2, completionTokens: 2 },
      },
      {
        content: "Reply to Dana by e-mail; she leads procurement.",
        usage: { promptTokens: 4, completionTokens: 4 },
      },
    ]);
    const h = harness({ definitions: shipped, server });
    const res = await h.runner.run(request({ agentRef: "orchestrator", channel: "webhook" }));

    const [parent1, child, parent2] = server.requests;
    expect(toolNames(parent1!)).toEqual([
      "cancel_subagent",
      "continue_subagent",
      "delegate_classifier",
      "delegate_context_scout",
      "delegate_drafter",
      "delegate_researcher",
      "list_subagents",
      "memory_hybrid_search",
      "memory_recall",
      "plan",
      "retrieve_flow_context",
      "wait_subagents",
    ]);
    const delegateSpec = parent1!.body.tools.find(
      (t: { function: { name: string } }) => t.function.name === "retrieve_flow_context",
    );
    expect(delegateSpec.function.description).toBe(shipped.get("flow_memory_agent")!.whenToUse);
    expect(delegateSpec.function.parameters.required).toEqual(["prompt"]);

    const rendered =
      "Task:\nFind out who Dana Whitfield is and how she prefers to be contacted." +
      "\n\nObjective:\nAddress the renewal reply correctly" +
      "\n\nEvidence:\n- From: dana@harbor.example\n- Subject: Renewal" +
      "\n\nConstraints:\n- Use memory only" +
      "\n\nMust not assume:\n- that Dana is the decision maker" +
      "\n\nExpected output:\nTwo sentences with source tags." +
      "\n\nCitation requirement:\nretrieval_hits";
    expect(renderHandoff(envelope as never)).toBe(rendered);
    expect(lastMessage(child!, "user")).toBe(rendered);
    expect(lastMessage(child!, "system")!.startsWith("# Flow Memory Agent")).toBe(true);
    expect(child!.body.model).toBe("model-for-burst");
    expect(parent2!.body.messages.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: "d1",
      content: "Dana Whitfield leads procurement at Harbor Logistics (people).",
    });

    expect(res.text).toBe("Reply to Dana by e-mail; she leads procurement.");
    expect(res.usage).toEqual({ promptTokens: 7, completionTokens: 7 });
    const [childTrace, parentTrace] = h.traces;
    expect(childTrace).toMatchObject({
      agentId: "flow_memory_agent",
      depth: 1,
      parentTurnId: parentTrace!.turnId,
    });
    expect(childTrace!.policy.channel).toBe("webhook");
    expect(parentTrace).toMatchObject({ agentId: "orchestrator", depth: 0, model: "model-for-agentic" });
    expect(parentTrace!.toolCalls[0]).toMatchObject({
      name: "retrieve_flow_context",
      decision: "allow",
      outcome: "executed",
      childTurnId: childTrace!.turnId,
      subagentSessionId: "sa-1",
    });
    expect(childTrace!.subagentSessionId).toBe("sa-1");
  });

  it("hands a failed child back to the parent as [SUBAGENT_INCOMPLETE] with the reason", async () => {
    server = await startScriptedLlmServer([
      {
        toolCalls: [
          { id: "d1", name: "delegate_classifier", arguments: { prompt: "Label this: refund please" } },
        ],
      },
      { status: 500, body: "model crashed" },
      { content: "The classifier failed, so the label is unknown." },
    ]);
    const h = harness({ definitions: shipped, server });
    const res = await h.runner.run(request({ agentRef: "orchestrator" }));
    const toolMsg = server.requests[2]!.body.messages.at(-1);
    expect(toolMsg.content).toMatch(
      /^\[SUBAGENT_INCOMPLETE\]\nsession: sa-1\nagent: classifier\nreason: failed — LLM provider returned HTTP 500 .* model crashed\npartial output:\n\(none\)\n\[\/SUBAGENT_INCOMPLETE\]$/,
    );
    expect(res.text).toBe("The classifier failed, so the label is unknown.");
    const childTrace = h.traces.find((t) => t.agentId === "classifier")!;
    expect(childTrace.stop).toBe("error");
    expect(h.traces.find((t) => t.agentId === "orchestrator")!.toolCalls[0]).toMatchObject({
      outcome: "executed",
      childTurnId: childTrace.turnId,
      subagentSessionId: "sa-1",
      incomplete: "failed",
    });
  });

  it("caps the delegation chain at depth 3", async () => {
    const agent = (id: string, tier: string, allow: string[]) => ({
      folder: id,
      toml: `id = "${id}"\nwhen_to_use = "hop ${id}"\nagent_tier = "${tier}"\n[tools]\nnamed = []\n${allow.length ? `[subagents]\nallowlist = [${allow.map((a) => `"${a}"`).join(", ")}]` : ""}`,
      prompt: `You are ${id}.`,
    });
    const defs = defineAgents(
      [
        agent("a", "chat", ["b"]),
        agent("b", "reasoning", ["c"]),
        agent("c", "chat", ["d"]),
        agent("d", "reasoning", ["w"]),
        agent("w", "worker", []),
      ],
      TEST_CATALOG,
    );
    const hop = (to: string) => ({
      toolCalls: [{ name: `delegate_${to}`, arguments: { prompt: `go ${to}` } }],
    });
    server = await startScriptedLlmServer([
      hop("b"),
      hop("c"),
      hop("d"),
      hop("w"),
      { content: "d done" },
      { content: "c done" },
      { content: "b done" },
      { content: "a done" },
    ]);
    const h = harness({ definitions: defs, server });
    const res = await h.runner.run(request({ agentRef: "a" }));
    expect(res.text).toBe("a done");
    expect(lastMessage(server.requests[4]!, "tool")).toBe(
      "Error: tool `delegate_w` failed: delegation depth limit of 3 reached: `d` cannot hand off to `w`",
    );
    expect(h.traces.map((t) => [t.agentId, t.depth])).toEqual([
      ["d", 3],
      ["c", 2],
      ["b", 1],
      ["a", 0],
    ]);
  });

  it("enforces the tier rules again at run time when definitions change after load", async () => {
    const chatty: AgentDefinition = { ...shipped.get("drafter")!, agentTier: "chat" };
    const defs = new Map(shipped).set("drafter", chatty);
    server = await startScriptedLlmServer([
      { toolCalls: [{ name: "delegate_drafter", arguments: { prompt: "Draft a reply" } }] },
      { content: "Could not delegate." },
    ]);
    const h = harness({ definitions: () => defs, server });
    await h.runner.run(request({ agentRef: "orchestrator" }));
    expect(server.requests).toHaveLength(2);
    expect(lastMessage(server.requests[1]!, "tool")).toContain(
      "the chat tier is a leaf in its own dimension — hand off to a reasoning or worker agent instead",
    );
  });

  it("refuses at load an orchestrator that allowlists a chat agent and a worker that lists subagents", async () => {
    const toml = await readFile(join(AGENTS_DIR, "orchestrator", "agent.toml"), "utf8");
    const prompt = await readFile(join(AGENTS_DIR, "orchestrator", "prompt.md"), "utf8");
    const self = toml.replace(/allowlist = \[.*\]/, 'allowlist = ["orchestrator"]');
    expect(() => defineAgents([{ folder: "orchestrator", toml: self, prompt }], TEST_CATALOG)).toThrow(
      "agent `orchestrator` cannot delegate to `orchestrator`: the chat tier is a leaf in its own dimension — hand off to a reasoning or worker agent instead",
    );
    const fmaToml = await readFile(join(AGENTS_DIR, "researcher", "agent.toml"), "utf8");
    const bad = `${fmaToml}\n[subagents]\nallowlist = ["classifier"]\n`;
    const err = (() => {
      try {
        defineAgents(
          [
            { folder: "researcher", toml: bad, prompt: "x" },
            { folder: "classifier", toml: 'id = "classifier"\nwhen_to_use = "c"', prompt: "c" },
          ],
          TEST_CATALOG,
        );
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AgentDefinitionError);
    expect((err as AgentDefinitionError).problems).toEqual([
      "agent `researcher` is a `worker` tier and must not list `classifier` in its subagents — workers are leaf executors",
    ]);
  });
});
