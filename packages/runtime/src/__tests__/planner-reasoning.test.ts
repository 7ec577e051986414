/**
 * #20 item 5: the shipped planner is a reasoning-tier agent routed by `[model] hint = "reasoning"` to
 * the reasoning model set in Settings › Models, and it delegates to workers in the background; the
 * stored step trace holds the delegation as a tree.
 */
import { lastMessage, type ScriptedReply, startScriptedLlmServer } from "@switchyard/agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentWebhookFlow, startTestHost, waitForRun } from "./test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

const flow = agentWebhookFlow("plan", "plan", {
  agent_ref: "planner",
  prompt: "Route this ticket: refund please",
});

interface StoredTurn {
  turnId: string;
  parentTurnId?: string;
  agentId: string;
  agentTier: string;
  model: string;
  subagentSessionId?: string;
  toolCalls: { name: string; childTurnId?: string; subagentSessionId?: string }[];
}

describe("the planner (reasoning tier)", () => {
  it("calls the reasoning model from settings and hands work to a worker on its own model, traced as a tree", async () => {
    const llm = await startScriptedLlmServer((req): ScriptedReply => {
      const system = lastMessage(req, "system")!;
      if (system.startsWith("# Classifier")) return { content: '{"label":"refund"}' };
      const tools = (req.body.messages as { role: string }[]).filter((m) => m.role === "tool");
      return tools.length === 0
        ? {
            toolCalls: [
              {
                id: "c1",
                name: "delegate_classifier",
                arguments: { prompt: "Label: refund please. Categories: refund, other.", blocking: false },
              },
            ],
          }
        : { content: "Routed to refunds." };
    });
    try {
      await t.host.settings.set("llm.provider", {
        baseUrl: llm.url,
        models: { reasoning: "deep-think-1", burst: "tiny-1", default: "main-1" },
      });
      await t.host.services.reloadAgents();
      const { id } = await t.host.flows.create({ name: "Plan", definition: flow });
      await t.host.control.setActive(id, true);
      const res = await fetch(`${t.url}/hooks/plan`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { text: string }).text).toBe("Routed to refunds.");

      // The planner's prompt follows the safety preamble; the classifier's comes first.
      const who = (system: string) =>
        system.includes("\n# Planner\n") ? "# Planner" : system.split("\n")[0];
      const models = llm.requests.map((r) => [who(lastMessage(r, "system")!), r.body.model]);
      // Two or three planner calls: a third when the classifier's result arrives after its answer
      // (the step gathers it and asks again). Every one goes to the reasoning model.
      const plannerModels = models.filter(([who]) => who === "# Planner").map(([, m]) => m);
      expect(plannerModels.length).toBeGreaterThanOrEqual(2);
      expect(new Set(plannerModels)).toEqual(new Set(["deep-think-1"]));
      expect(models.filter(([who]) => who === "# Classifier").map(([, m]) => m)).toEqual(["tiny-1"]);

      const run = await waitForRun(t.host, res.headers.get("x-switchyard-run-id")!);
      const step = run.steps.find((s) => s.nodeId === "plan")!;
      const turns = (JSON.parse(step.logs!) as { agentTurns: StoredTurn[] }).agentTurns;
      const planner = turns.find((x) => x.agentId === "planner")!;
      const classifier = turns.find((x) => x.agentId === "classifier")!;
      expect(planner).toMatchObject({ agentTier: "reasoning", model: "deep-think-1" });
      expect(classifier).toMatchObject({
        parentTurnId: planner.turnId,
        subagentSessionId: "sa-1",
        model: "tiny-1",
      });
      expect(planner.toolCalls[0]).toMatchObject({
        name: "delegate_classifier",
        childTurnId: classifier.turnId,
        subagentSessionId: "sa-1",
      });
    } finally {
      await llm.close();
    }
  });
});
