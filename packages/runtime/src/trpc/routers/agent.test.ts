import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeAll(async () => {
  t = await testCaller({ seed: false });
});
afterAll(async () => {
  await t.cleanup();
});

describe("agent router", () => {
  it("lists the loaded definitions with their tools, limits and version hash", async () => {
    const viewer = await t.as("viewer");
    const { agents, providerConfigured } = await viewer.caller.agent.list();
    expect(providerConfigured).toBe(false);
    expect(agents.map((a) => a.id)).toEqual([
      "classifier",
      "context_scout",
      "drafter",
      "flow_memory_agent",
      "operator",
      "orchestrator",
      "planner",
      "researcher",
      "support_responder",
    ]);
    const { access: _access, ...memoryAgent } = agents.find((a) => a.id === "flow_memory_agent")!;
    expect(memoryAgent).toEqual({
      id: "flow_memory_agent",
      displayName: "Flow Memory Agent",
      whenToUse: expect.stringMatching(/^Read-only retrieval of what the user's memory knows/),
      tier: "worker",
      sandboxMode: "read_only",
      modelHint: "burst",
      modelExact: null,
      tools: ["memory_recall", "memory_hybrid_search", "memory_flavour"],
      subagents: [],
      maxResultChars: 4000,
      maxIterations: 10,
      iterationPolicy: "extended",
      temperature: 0.3,
      timeoutSecs: null,
      versionHash: t.host.services.agents().definitions.get("flow_memory_agent")?.versionHash,
      retrievalOnly: true,
    });
    expect(agents.find((a) => a.id === "orchestrator")?.subagents).toContain("flow_memory_agent");
  });

  it("lists, per agent, which tools a webhook, e-mail, cron, API or manual run would get", async () => {
    const viewer = await t.as("viewer");
    const { agents } = await viewer.caller.agent.list();
    const access = (id: string) =>
      Object.fromEntries(
        agents
          .find((a) => a.id === id)!
          .access.map((c) => [c.channel, [c.allowedPermission, c.allowed, c.denied]]),
      );
    expect(access("support_responder")).toEqual({
      webhook: ["read_only", ["memory_flavour", "memory_recall"], ["http_request", "send_email"]],
      email: ["read_only", ["memory_flavour", "memory_recall"], ["http_request", "send_email"]],
      cron: ["write", ["http_request", "memory_flavour", "memory_recall", "send_email"], []],
      api: ["write", ["http_request", "memory_flavour", "memory_recall", "send_email"], []],
      manual: ["execute", ["http_request", "memory_flavour", "memory_recall", "send_email"], []],
    });
    expect(access("operator")).toEqual({
      webhook: ["read_only", [], ["http_request", "run_code", "start_flow"]],
      email: ["read_only", [], ["http_request", "run_code", "start_flow"]],
      cron: ["write", ["http_request", "start_flow"], ["run_code"]],
      api: ["write", ["http_request", "start_flow"], ["run_code"]],
      manual: ["execute", ["http_request", "run_code", "start_flow"], []],
    });
    // Hidden = the tools it does not list, on every channel (run_code is hidden, never denied, for support_responder).
    const email = agents
      .find((a) => a.id === "support_responder")!
      .access.find((c) => c.channel === "email")!;
    expect(email.hidden).toContain("run_code");
    // The same session the runner builds: the list agrees with agent.get's full preview.
    const full = await viewer.caller.agent.get({ id: "operator" });
    const cron = full.policy.find((p) => p.channel === "cron")!;
    expect([cron.allowed, cron.hidden, cron.denied]).toEqual([
      access("operator").cron![1],
      agents.find((a) => a.id === "operator")!.access.find((c) => c.channel === "cron")!.hidden,
      access("operator").cron![2],
    ]);
  });

  it("shows one definition with its prompt and its policy on every channel under the saved ceilings", async () => {
    const a = await t.caller.agent.get({ id: "flow_memory_agent" });
    expect(a.whenToUse).toMatch(/^Read-only retrieval of what the user's memory knows/);
    expect(a.prompt).toBe(t.host.services.agents().definitions.get("flow_memory_agent")?.prompt);
    expect(a.delegateName).toBe("retrieve_flow_context");
    expect(a.policy.map((p) => p.channel)).toEqual([
      "webhook",
      "email",
      "error",
      "cron",
      "api",
      "manual",
      "subflow",
    ]);
    const webhook = a.policy.find((p) => p.channel === "webhook")!;
    expect(webhook.allowed).toEqual(["memory_flavour", "memory_hybrid_search", "memory_recall"]);
    // Its read_only sandbox narrows even the manual channel's execute ceiling.
    expect(a.policy.find((p) => p.channel === "manual")).toMatchObject({
      channelCeiling: "execute",
      allowedPermission: "read_only",
      narrowedBySandbox: true,
    });

    await t.caller.settings.policy.set({
      ceilings: { webhook: "none", email: "read_only", cron: "write", api: "write", manual: "execute" },
    });
    const after = await t.caller.agent.get({ id: "flow_memory_agent" });
    expect(after.policy.find((p) => p.channel === "webhook")?.allowed).toEqual([]);
    await t.caller.settings.policy.reset();
  });

  it("previews the researcher's http_get as refused on webhook and e-mail and allowed on cron", async () => {
    const r = await t.caller.agent.get({ id: "researcher" });
    const on = (c: string) => r.policy.find((p) => p.channel === c)!;
    expect([on("webhook").denied, on("webhook").networkAllowed]).toEqual([["http_get"], false]);
    expect([on("email").denied, on("email").networkAllowed]).toEqual([["http_get"], false]);
    expect([on("cron").allowed, on("cron").networkAllowed]).toEqual([["http_get"], true]);
    expect(on("webhook").boundary).toContain(
      "- Network access: not allowed on this channel; tools that reach the network are refused",
    );
  });

  it("answers NOT_FOUND for an unknown agent and UNAUTHORIZED without sign-in", async () => {
    await expect(t.caller.agent.get({ id: "ghost" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'no agent definition "ghost" is loaded',
    });
    await expect(t.caller.agent.get({ id: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(t.anonymous.agent.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("reports a configured provider without revealing its URL or key", async () => {
    const { id } = await t.caller.credential.create({
      name: "k",
      type: "llmProvider",
      data: { apiKey: "sk-agent-list-secret", allowedHosts: "127.0.0.1" },
    });
    await t.caller.settings.llm.set({
      baseUrl: "http://127.0.0.1:9/v1",
      credentialId: id,
      models: { default: "m" },
    });
    const viewer = await t.as("viewer");
    const list = await viewer.caller.agent.list();
    expect(list.providerConfigured).toBe(true);
    const json = JSON.stringify([list, await viewer.caller.agent.get({ id: "orchestrator" })]);
    expect(json).not.toContain("sk-agent-list-secret");
    expect(json).not.toContain("127.0.0.1:9");
  });
});
