import { describe, expect, it } from "vitest";
// Type-only import across the package boundary: it keeps this mirror and the engine's contract in step.
import type * as Engine from "../../engine/src/contract";
import type * as Agent from "./contract";
import { createAgentRunner } from "./runner/create-agent-runner";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const requestMatches: Same<Agent.AgentRunRequest, Engine.AgentRunRequest> = true;
const resultMatches: Same<Agent.AgentRunResult, Engine.AgentRunResult> = true;
const channelMatches: Same<Agent.RunChannel, Engine.RunChannel> = true;

describe("engine contract", () => {
  it("createAgentRunner returns something the engine accepts as ctx.agents", () => {
    const runner: Engine.AgentRunner = createAgentRunner({
      definitions: new Map(),
      modelForHint: () => "m",
      channelCeilings: {},
    });
    expect(typeof runner.run).toBe("function");
    expect([requestMatches, resultMatches, channelMatches]).toEqual([true, true, true]);
  });
});
