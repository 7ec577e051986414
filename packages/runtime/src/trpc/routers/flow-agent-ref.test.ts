import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeEach(async () => {
  t = await testCaller({ seed: false });
});
afterEach(async () => {
  await t.cleanup();
});

const flowWith = (agentRef: string) => ({
  nodes: [
    { id: "start", type: "trigger.manual", config: {} },
    { id: "ask", type: "agent", config: { agent_ref: agentRef, prompt: "Summarise" } },
  ],
  edges: [{ from: { node: "start", port: "main" }, to: { node: "ask", port: "main" } }],
});

const KNOWN =
  "classifier, context_scout, drafter, flow_memory_agent, operator, orchestrator, planner, researcher, support_responder";
const unknownMessage = `node "ask" field "agent_ref": no agent "support_triage" is loaded; known agents: ${KNOWN}`;

describe("an agent node naming an agent that is not loaded", () => {
  it("is a problem at save naming the node, the ref and the loaded agents, and activation is refused", async () => {
    const { id } = await t.caller.flow.create({ name: "Triage", definition: flowWith("researcher") });
    const saved = await t.caller.flow.save({ id, definition: flowWith("support_triage") });
    expect(saved.problems).toEqual([
      { code: "unknown_agent", nodeId: "ask", field: "agent_ref", message: unknownMessage },
    ]);
    await expect(t.caller.flow.setActive({ id, active: true })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: `cannot activate: version 2 has 1 problem:\n- ${unknownMessage}`,
    });
    expect((await t.caller.flow.get({ id })).flow.active).toBe(false);
  });

  it("is accepted at save and activation when the agent is loaded", async () => {
    const { id, problems } = await t.caller.flow.create({ name: "Ok", definition: flowWith("researcher") });
    expect(problems).toEqual([]);
    await t.caller.flow.setActive({ id, active: true });
    expect((await t.caller.flow.get({ id })).flow.active).toBe(true);
  });

  it("is refused by the REST API with its path in the request body, and nothing is stored", async () => {
    await expect(
      t.caller.api.flows.create({ name: "Triage", definition: flowWith("support_triage") as never }),
    ).rejects.toMatchObject({
      message: "the flow has 1 problem (see details.problems)",
      cause: {
        details: {
          problems: [
            {
              path: "body.definition.nodes.1.config.agent_ref",
              code: "unknown_agent",
              nodeId: "ask",
              message: unknownMessage,
            },
          ],
        },
      },
    });
    expect(await t.host.db.prisma.flow.count()).toBe(0);
  });
});
