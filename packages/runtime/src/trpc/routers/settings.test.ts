import { DEFAULT_CHANNEL_CEILINGS, type ScriptedLlmServer, startScriptedLlmServer } from "@switchyard/agent";
import type { NodeContext, RunChannel } from "@switchyard/engine";
import { stepActionTools } from "../../agent-tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

const API_KEY = "sk-live-SECRET-91c2e7";

let t: Awaited<ReturnType<typeof testCaller>>;
let llm: ScriptedLlmServer | undefined;
beforeEach(async () => {
  t = await testCaller({ seed: false });
});
afterEach(async () => {
  await llm?.close();
  llm = undefined;
  await t.cleanup();
});

async function failure(p: Promise<unknown>) {
  try {
    await p;
    return { code: "OK" };
  } catch (e) {
    const err = e as { code?: string; message: string; cause?: { issues?: { path: (string | number)[] }[] } };
    return { code: err.code, message: err.message, paths: err.cause?.issues?.map((i) => i.path.join(".")) };
  }
}

const providerKey = (allowedHosts = "127.0.0.1") =>
  t.caller.credential.create({
    name: "Provider",
    type: "llmProvider",
    data: { apiKey: API_KEY, allowedHosts },
  });

/** Runs an agent through the host's live runner and returns the policy its trace recorded. */
async function runnerPolicy(agentRef: string, channel: RunChannel) {
  const traces: { policy: unknown }[] = [];
  // Agents that need a provider fail without one, but their turn still records its policy first.
  await t.host.services
    .agents()
    .runner.run({
      agentRef,
      prompt: "what do we know about Ada?",
      inputContext: null,
      channel,
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      onTrace: (trace) => traces.push(trace as { policy: unknown }),
      // What the executor adds to every agent step; only policed here (no model), never executed.
      tools: stepActionTools({} as NodeContext, t.host.settings),
    })
    .catch(() => undefined);
  if (!traces[0]) throw new Error(`no trace from ${agentRef}`);
  return traces[0]?.policy as {
    allowed: string[];
    hidden: string[];
    denied: string[];
    allowedPermission: string;
  };
}

describe("settings › models", () => {
  it("saves the provider, rebuilds the agent runtime with it and never returns the key", async () => {
    llm = await startScriptedLlmServer([{ content: '{"label":"a"}' }]);
    const { id } = await providerKey();
    const before = t.host.services.agents();
    const saved = await t.caller.settings.llm.set({
      baseUrl: llm.url,
      credentialId: id,
      models: { burst: "tiny-1", default: "big-1", chat: "  " },
    });
    expect(saved.provider).toEqual({
      baseUrl: llm.url,
      credentialId: id,
      models: { burst: "tiny-1", default: "big-1" },
    });
    const got = await t.caller.settings.llm.get();
    expect(got.provider).toEqual(saved.provider);
    expect(got.slots).toEqual(["burst", "agentic", "reasoning", "coding", "chat", "default"]);
    expect(JSON.stringify([saved, got])).not.toContain(API_KEY);
    expect(t.host.services.agents()).not.toBe(before);

    // The running runner now calls that provider with that key and the hint's model.
    await t.host.services.agents().runner.run({
      agentRef: "classifier",
      prompt: "label this",
      inputContext: { text: "hi" },
      channel: "manual",
      timeoutMs: 10_000,
      signal: new AbortController().signal,
    });
    expect(llm.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(llm.requests[0]?.body.model).toBe("tiny-1");
  });

  it("refuses a bad URL, a missing or wrong-type credential and non-owners, writing nothing", async () => {
    const bearer = await t.caller.credential.create({
      name: "Bearer",
      type: "httpBearer",
      data: { token: "x", allowedHosts: "x.test" },
    });
    expect(await failure(t.caller.settings.llm.set({ baseUrl: "ftp://x/v1", models: {} }))).toMatchObject({
      code: "BAD_REQUEST",
      paths: ["baseUrl"],
    });
    expect(
      await failure(
        t.caller.settings.llm.set({ baseUrl: "http://h/v1", credentialId: bearer.id, models: {} }),
      ),
    ).toEqual({
      code: "BAD_REQUEST",
      message: '"Bearer" is not an LLM provider API key credential',
    });
    expect(
      await failure(t.caller.settings.llm.set({ baseUrl: "http://h/v1", credentialId: "gone", models: {} })),
    ).toEqual({
      code: "BAD_REQUEST",
      message: "the chosen credential no longer exists",
    });
    expect(
      await failure(t.caller.settings.llm.set({ baseUrl: "http://h/v1", models: { turbo: "x" } as never })),
    ).toMatchObject({ code: "BAD_REQUEST", paths: ["models"] });
    const editor = await t.as("editor");
    expect(await failure(editor.caller.settings.llm.set({ baseUrl: "http://h/v1", models: {} }))).toEqual({
      code: "FORBIDDEN",
      message: "only owners can do this",
    });
    expect(await failure(editor.caller.settings.llm.get())).toMatchObject({ code: "FORBIDDEN" });
    expect(await t.host.settings.get("llm.provider")).toBeUndefined();
  });

  it("tests the connection with one real chat call and reports latency and the reply", async () => {
    llm = await startScriptedLlmServer([{ content: "pong" }]);
    const { id } = await providerKey();
    const r = await t.caller.settings.llm.test({ baseUrl: llm.url, credentialId: id, model: "tiny-1" });
    expect(r).toEqual({ ok: true, latencyMs: expect.any(Number), model: "tiny-1", reply: "pong" });
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(llm.requests[0]?.body.messages).toEqual([
      { role: "user", content: "Reply with the single word: pong" },
    ]);
    expect(JSON.stringify(r)).not.toContain(API_KEY);
    // Testing saves nothing.
    expect(await t.host.settings.get("llm.provider")).toBeUndefined();
  });

  it("refuses to save a provider whose base URL is outside its key's allowed hosts, naming them", async () => {
    const { id } = await providerKey("api.openai.com");
    expect(
      await failure(
        t.caller.settings.llm.set({ baseUrl: "http://127.0.0.1:9/v1", credentialId: id, models: {} }),
      ),
    ).toMatchObject({
      code: "BAD_REQUEST",
      message: `credential "${id}" may not be sent to 127.0.0.1: its allowed hosts are api.openai.com`,
      paths: ["baseUrl"],
    });
    expect(await t.host.settings.get("llm.provider")).toBeUndefined();
  });

  it("refuses to test with a key whose credential is not bound to the provider's host, sending nothing", async () => {
    llm = await startScriptedLlmServer([{ content: "pong" }]);
    const { id } = await providerKey("api.openai.com");
    const r = await t.caller.settings.llm.test({ baseUrl: llm.url, credentialId: id, model: "tiny-1" });
    expect(r).toEqual({
      ok: false,
      latencyMs: expect.any(Number),
      error: `credential "${id}" may not be sent to 127.0.0.1: its allowed hosts are api.openai.com`,
    });
    expect(llm.requests).toHaveLength(0);
  });

  it("shows the provider's exact error, with the key redacted, and does not retry", async () => {
    llm = await startScriptedLlmServer([
      { status: 401, body: `{"error":{"message":"Incorrect API key provided: ${API_KEY}"}}` },
    ]);
    const { id } = await providerKey();
    const r = await t.caller.settings.llm.test({ baseUrl: llm.url, credentialId: id, model: "m" });
    expect(r).toEqual({
      ok: false,
      latencyMs: expect.any(Number),
      error: `LLM provider returned HTTP 401 for ${llm.url}/chat/completions after 1 attempt: {"error":{"message":"Incorrect API key provided: [redacted]"}}`,
    });
    expect(llm.requests).toHaveLength(1);
  });

  it("reports a connection failure as an error, not a crash", async () => {
    const r = await t.caller.settings.llm.test({ baseUrl: "http://127.0.0.1:9/v1", model: "m" });
    expect(r.ok).toBe(false);
    expect(r).toMatchObject({
      error: expect.stringContaining("LLM provider request to http://127.0.0.1:9/v1/chat/completions failed"),
    });
  });

  it("clears the provider so agents fall back to retrieval-only", async () => {
    await t.caller.settings.llm.set({ baseUrl: "http://127.0.0.1:9/v1", models: { default: "m" } });
    await t.caller.settings.llm.clear();
    expect((await t.caller.settings.llm.get()).provider).toBeNull();
    expect((await t.caller.agent.list()).providerConfigured).toBe(false);
  });
});

describe("settings › agent policy", () => {
  it("shows the safe defaults when nothing is stored, and first start stores them", async () => {
    const got = await t.caller.settings.policy.get();
    expect(got).toMatchObject({ ceilings: { ...DEFAULT_CHANNEL_CEILINGS }, stored: false });
    expect(got.channels).toEqual(["webhook", "email", "error", "cron", "api", "manual", "subflow"]);
    expect(got.levels).toEqual(["none", "read_only", "write", "execute", "dangerous"]);

    const seeded = await testCaller();
    try {
      expect(await seeded.host.settings.get("policy.channelCeilings")).toEqual({
        ...DEFAULT_CHANNEL_CEILINGS,
      });
      expect((await seeded.caller.settings.policy.get()).stored).toBe(true);
    } finally {
      await seeded.cleanup();
    }
  });

  it("saves ceilings and the live runner applies them at once", async () => {
    expect((await runnerPolicy("flow_memory_agent", "webhook")).allowed).toEqual([
      "memory_flavour",
      "memory_hybrid_search",
      "memory_recall",
    ]);
    const ceilings = {
      webhook: "none",
      email: "read_only",
      cron: "write",
      api: "write",
      manual: "execute",
    } as const;
    await t.caller.settings.policy.set({ ceilings });
    expect(await t.host.settings.get("policy.channelCeilings")).toEqual(ceilings);
    const after = await runnerPolicy("flow_memory_agent", "webhook");
    expect(after.allowed).toEqual([]);
    expect(after.denied).toEqual(["memory_flavour", "memory_hybrid_search", "memory_recall"]);

    await t.caller.settings.policy.reset();
    expect(await t.host.settings.get("policy.channelCeilings")).toEqual({ ...DEFAULT_CHANNEL_CEILINGS });
    expect((await runnerPolicy("flow_memory_agent", "webhook")).allowed).toHaveLength(3);
  });

  it("refuses a missing channel, an unknown level or an empty map, writing nothing", async () => {
    const base = {
      webhook: "read_only",
      email: "read_only",
      cron: "write",
      api: "write",
      manual: "execute",
    } as const;
    const { manual: _m, ...missing } = base;
    expect(await failure(t.caller.settings.policy.set({ ceilings: missing as never }))).toMatchObject({
      code: "BAD_REQUEST",
      paths: ["ceilings.manual"],
    });
    expect(
      await failure(t.caller.settings.policy.set({ ceilings: { ...base, cron: "root" as never } })),
    ).toMatchObject({
      code: "BAD_REQUEST",
      paths: ["ceilings.cron"],
    });
    expect(await failure(t.caller.settings.policy.set({ ceilings: {} as never }))).toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(
      await failure(t.caller.settings.policy.set({ ceilings: { ...base, web: "write" } as never })),
    ).toMatchObject({
      code: "BAD_REQUEST",
    });
    const editor = await t.as("editor");
    expect(await failure(editor.caller.settings.policy.set({ ceilings: base }))).toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await failure(editor.caller.settings.policy.reset())).toMatchObject({ code: "FORBIDDEN" });
    expect(await t.host.settings.get("policy.channelCeilings")).toBeUndefined();
  });

  it("previews the tools and boundary text for draft ceilings, matching what the runner records", async () => {
    const drafts = [
      { webhook: "read_only", email: "read_only", cron: "write", api: "write", manual: "execute" },
      { webhook: "none", email: "none", cron: "none", api: "none", manual: "none" },
      { webhook: "dangerous", email: "write", cron: "write", api: "write", manual: "dangerous" },
    ] as const;
    for (const ceilings of drafts) {
      await t.caller.settings.policy.set({ ceilings });
      for (const agentId of [
        "flow_memory_agent",
        "orchestrator",
        "planner",
        "researcher",
        "classifier",
        "support_responder",
        "operator",
      ]) {
        const p = await t.caller.settings.policy.preview({ agentId, channel: "webhook", ceilings });
        const real = await runnerPolicy(agentId, "webhook");
        expect({
          allowed: p.allowed,
          hidden: p.hidden,
          denied: p.denied,
          level: p.allowedPermission,
        }).toEqual({
          allowed: real.allowed,
          hidden: real.hidden,
          denied: real.denied,
          level: real.allowedPermission,
        });
      }
    }
    const p = await t.caller.settings.policy.preview({
      agentId: "flow_memory_agent",
      channel: "webhook",
      ceilings: drafts[0],
    });
    expect(p).toMatchObject({
      allowed: ["memory_flavour", "memory_hybrid_search", "memory_recall"],
      hidden: ["http_get", "http_request", "run_code", "send_email", "start_flow"],
      denied: [],
      maxBytes: 2048,
    });
    expect(p.boundary).toBe(
      [
        "## Tool Policy Boundary",
        "- Agent: flow_memory_agent",
        "- Channel: webhook",
        "- Entry point: flow",
        "- Allowed permission: read_only",
        "- Risk: low",
        "- Allowed tools: memory_flavour, memory_hybrid_search, memory_recall",
        "- Restricted tools: 5 omitted by policy",
        "",
      ].join("\n"),
    );
    const none = await t.caller.settings.policy.preview({
      agentId: "flow_memory_agent",
      channel: "webhook",
      ceilings: drafts[1],
    });
    expect(none).toMatchObject({
      allowed: [],
      denied: ["memory_flavour", "memory_hybrid_search", "memory_recall"],
    });
    expect(none.boundary).toContain("- Restricted tools: 8 omitted by policy");
    expect(
      await failure(
        t.caller.settings.policy.preview({ agentId: "ghost", channel: "webhook", ceilings: drafts[0] }),
      ),
    ).toEqual({
      code: "NOT_FOUND",
      message: 'no agent definition "ghost" is loaded',
    });
  });
});

describe("settings › network", () => {
  it("stores exempt hosts, normalised and de-duplicated, for the next start", async () => {
    expect(await t.caller.settings.network.get()).toEqual({ allowHosts: [] });
    const r = await t.caller.settings.network.set({
      allowHosts: ["127.0.0.1", " Ollama.Internal ", "ollama.internal", "::1"],
    });
    expect(r).toEqual({ allowHosts: ["127.0.0.1", "ollama.internal", "::1"] });
    expect(await t.host.settings.get("http.allowHosts")).toEqual(["127.0.0.1", "ollama.internal", "::1"]);
  });

  it("refuses URLs, ports and non-owners, writing nothing", async () => {
    for (const bad of ["http://localhost", "localhost:8080", "a/b", "", "*.internal"]) {
      expect(await failure(t.caller.settings.network.set({ allowHosts: [bad] }))).toMatchObject({
        code: "BAD_REQUEST",
        paths: ["allowHosts.0"],
      });
    }
    const editor = await t.as("editor");
    expect(await failure(editor.caller.settings.network.set({ allowHosts: ["x"] }))).toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await t.host.settings.get("http.allowHosts")).toBeUndefined();
  });
});
