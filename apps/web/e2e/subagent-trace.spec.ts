/**
 * #20 acceptance 2 in the browser: the shipped planner (reasoning tier) spawns three classifiers in
 * the background, keeps calling its model while they run (their replies are held until its third
 * call arrives — ordering by events, not sleeps), lists them, waits for them; two answer and one hits
 * its iteration limit and comes back as [SUBAGENT_INCOMPLETE]. The run page draws each child's turn
 * nested under the call that spawned it.
 */
import { rmSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { LIMIT_WRAP_UP_MESSAGE } from "../../../packages/agent/src/loop/agent-loop";
import {
  lastMessage,
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
test.use({ viewport: { width: 1440, height: 1000 } });

const events: string[] = [];
let releaseChildren: () => void = () => {};
const childrenHeld = new Promise<void>((r) => (releaseChildren = r));

async function reply(req: RecordedRequest): Promise<ScriptedReply> {
  const system = lastMessage(req, "system")!;
  const messages = req.body.messages as { role: string }[];
  if (system.includes("\n# Planner\n")) {
    const n = messages.filter((m) => m.role === "assistant").length + 1;
    events.push(`planner call ${n}`);
    if (n === 1)
      return {
        toolCalls: ["A", "B", "C"].map((t) => ({
          id: `spawn-${t}`,
          name: "delegate_classifier",
          arguments: { prompt: `Label ticket ${t}: refund or other?`, blocking: false },
        })),
      };
    if (n === 2) return { toolCalls: [{ id: "list", name: "list_subagents", arguments: {} }] };
    if (n === 3) {
      releaseChildren();
      return { toolCalls: [{ id: "wait", name: "wait_subagents", arguments: {} }] };
    }
    return { content: "A and B are refunds; C could not be labelled (the classifier hit its limit)." };
  }
  // The classifiers: held until the planner has made its third call.
  const task = lastMessage(req, "user")!;
  events.push(`classifier asked: ${task.split("\n")[1] ?? task}`);
  await childrenHeld;
  if (task.includes("ticket C")) return { toolCalls: [{ name: "memory_recall", arguments: { query: "C" } }] };
  if (task === LIMIT_WRAP_UP_MESSAGE) return { content: '{"label":"unknown","reason":"ran out of steps"}' };
  return { content: '{"label":"refund","confidence":0.9}' };
}

test.beforeAll(async () => {
  dir = tempDataDir();
  server = await startServer(dir);
  llm = await startScriptedLlmServer(reply);
  await trpc(
    server.url,
    "settings.llm.set",
    { baseUrl: llm.url, models: { reasoning: "deep-think-1", burst: "tiny-model", default: "main-model" } },
    "mutation",
  );
});
test.afterAll(async () => {
  await llm?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const flow = {
  nodes: [
    { id: "start", type: "trigger.manual", name: "Start", config: {}, position: { x: 0, y: 0 } },
    {
      id: "ask",
      type: "agent",
      name: "Plan the triage",
      config: { agent_ref: "planner", prompt: "Label tickets A, B and C." },
      position: { x: 320, y: 0 },
    },
  ],
  edges: [{ from: { node: "start", port: "main" }, to: { node: "ask", port: "main" } }],
};

test("a planner's background sub-agents appear nested under the calls that spawned them, with the one that hit its limit marked incomplete", async ({
  page,
}, testInfo) => {
  const { id } = await trpc<{ id: string }>(
    server.url,
    "flow.create",
    { name: "Triage plan", definition: flow },
    "mutation",
  );
  const { runId } = await trpc<{ runId: string }>(server.url, "flow.run", { id, payload: {} }, "mutation");
  await expect
    .poll(async () => (await trpc<{ status: string }>(server.url, "run.get", { id: runId })).status, {
      timeout: 30_000,
    })
    .toBe("succeeded");

  // The planner called its model twice more before any child was answered.
  const released = events.indexOf("planner call 3");
  expect(events.slice(0, released + 1).filter((e) => e.startsWith("planner"))).toEqual([
    "planner call 1",
    "planner call 2",
    "planner call 3",
  ]);
  expect(events.at(-1)).toBe("planner call 4");

  await useSession(page, server.url);
  await page.goto(`${server.url}/runs/${runId}`);
  await page.locator("[data-testid=run-node][data-node-id='ask']").click();
  await expect(page.getByTestId("step-inspector")).toHaveAttribute("data-node-id", "ask");

  const planner = page.locator("[data-testid=agent-turn-card][data-agent-id='planner']");
  await expect(planner).toHaveCount(1);
  await expect(planner.locator("header").first()).toContainText("reasoning");
  await expect(planner.locator("header").first()).toContainText("deep-think-1");

  // Each spawn call carries its session and, nested under it, the child's turn.
  const spawns = planner.locator("[data-testid=tool-call][data-tool='delegate_classifier']");
  await expect(spawns).toHaveCount(3);
  for (const [i, session] of ["sa-1", "sa-2", "sa-3"].entries()) {
    const spawn = spawns.nth(i);
    await expect(spawn.getByTestId("tool-subagent").first()).toHaveText(`session ${session} · background`);
    const child = spawn.locator(
      `[data-testid=spawned-turn] > [data-testid=agent-turn-card][data-agent-id='classifier'][data-session-id='${session}']`,
    );
    await expect(child).toHaveCount(1);
    await expect(child.getByTestId("turn-session")).toHaveText(`session ${session}`);
  }
  const limited = planner.locator("[data-testid=agent-turn-card][data-session-id='sa-3']");
  await expect(limited).toHaveAttribute("data-stop", "limit_stop");
  await expect(limited.getByTestId("turn-stop")).toHaveText(
    "Stopped at its iteration limit (1): the answer is a forced wrap-up without tools and may be incomplete.",
  );
  for (const session of ["sa-1", "sa-2"]) {
    await expect(
      planner.locator(`[data-testid=agent-turn-card][data-session-id='${session}']`),
    ).toHaveAttribute("data-stop", "finished");
  }

  // list_subagents answered while the children were still running; wait_subagents gathered all three.
  const list = planner.locator("[data-testid=tool-call][data-tool='list_subagents']");
  await list.getByTestId("tool-result").click();
  await expect(list.locator("pre")).toHaveText(
    "sa-1 · agent classifier · running\nsa-2 · agent classifier · running\nsa-3 · agent classifier · running",
  );
  const wait = planner.locator("[data-testid=tool-call][data-tool='wait_subagents']");
  await wait.getByTestId("tool-result").click();
  await expect(wait.locator("pre")).toContainText("session: sa-1\nagent: classifier\nstatus: completed");
  await expect(wait.locator("pre")).toContainText(
    "[SUBAGENT_INCOMPLETE]\nsession: sa-3\nagent: classifier\nreason: iteration_limit — stopped at its iteration limit (1) before a final answer",
  );
  await expect(planner.getByTestId("turn-stop").last()).toHaveText(
    "Finished: the model gave its final answer.",
  );
  await shot(page, testInfo, "subagent-tree");
});
