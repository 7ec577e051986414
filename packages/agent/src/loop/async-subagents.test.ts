/**
 * Asynchronous sub-agents (issue #20, acceptance 2): a parent spawns children in the background,
 * keeps talking to its model while they run, lists them, gathers their results, cancels one, and a
 * child that stops short comes back as `[SUBAGENT_INCOMPLETE]` — all through a scripted LLM server
 * speaking the real wire protocol. Ordering is proven by held replies, never by sleeps: a child's
 * reply is released only when the parent's later request has arrived, so a parent that waited for
 * its children would never send it and the test would fail.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentRunRequest } from "../contract";
import { recordingTool } from "../__tests__/fixtures";
import { defineAgents } from "../definitions/loader";
import { createOpenAiCompatibleProvider } from "../llm/openai-compatible";
import { DEFAULT_CHANNEL_CEILINGS } from "../policy/channels";
import { type AgentRunnerOptions, createAgentRunner } from "../runner/create-agent-runner";
import {
  lastMessage,
  type RecordedRequest,
  type ScriptedLlmServer,
  type ScriptedReply,
  startScriptedLlmServer,
} from "../testing/scripted-llm-server";
import { LIMIT_WRAP_UP_MESSAGE } from "./agent-loop";
import type { AgentTurnTrace } from "./trace";

let server: ScriptedLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const defs = defineAgents(
  [
    {
      folder: "boss",
      toml: 'id = "boss"\nwhen_to_use = "plans"\nagent_tier = "reasoning"\n[tools]\nnamed = []\n[subagents]\nallowlist = ["scout", "looper", "verbose", "slowpoke"]',
      prompt: "BOSS PROMPT",
    },
    {
      folder: "scout",
      toml: 'id = "scout"\nwhen_to_use = "looks up"\n[tools]\nnamed = []',
      prompt: "SCOUT PROMPT",
    },
    {
      folder: "looper",
      toml: 'id = "looper"\nwhen_to_use = "digs"\nmax_iterations = 1\n[tools]\nnamed = []',
      prompt: "LOOPER PROMPT",
    },
    {
      folder: "verbose",
      toml: 'id = "verbose"\nwhen_to_use = "talks"\nmax_result_chars = 100\n[tools]\nnamed = []',
      prompt: "VERBOSE PROMPT",
    },
    {
      folder: "slowpoke",
      toml: 'id = "slowpoke"\nwhen_to_use = "slow"\ntimeout_secs = 1\n[tools]\nnamed = []',
      prompt: "SLOWPOKE PROMPT",
    },
  ],
  [],
);

function setup(limits: Partial<AgentRunnerOptions> = {}) {
  const traces: AgentTurnTrace[] = [];
  const runner = createAgentRunner({
    definitions: defs,
    provider: createOpenAiCompatibleProvider({ baseUrl: server!.url, maxRetries: 0 }),
    modelForHint: () => "m",
    channelCeilings: DEFAULT_CHANNEL_CEILINGS,
    onTrace: (t) => traces.push(t),
    ...limits,
  });
  return { runner, traces };
}

const req = (over: Partial<AgentRunRequest> = {}): AgentRunRequest => ({
  agentRef: "boss",
  prompt: "Find A and B.",
  inputContext: null,
  channel: "webhook",
  timeoutMs: 30_000,
  signal: new AbortController().signal,
  ...over,
});

const who = (r: RecordedRequest) => lastMessage(r, "system")!.split("\n")[0];
const byAgent = (r: ScriptedLlmServer) => (name: string) => r.requests.filter((q) => who(q) === name);
/** The parent's n-th request (1-based). */
const bossCall = (n: number) => byAgent(server!)("BOSS PROMPT")[n - 1]!;
type Msg = { role: string; content: string | null; tool_call_id?: string };
const messagesOf = (r: RecordedRequest) => r.body.messages as Msg[];

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("asynchronous sub-agents", () => {
  it("spawns two workers in the background, keeps calling its model while they run, lists them, gathers both results, and gets the one that hit its limit back as [SUBAGENT_INCOMPLETE]", async () => {
    const events: string[] = [];
    const release = deferred();
    let bossCalls = 0;
    server = await startScriptedLlmServer(async (r): Promise<ScriptedReply> => {
      const name = who(r);
      if (name === "BOSS PROMPT") {
        const n = ++bossCalls;
        events.push(`boss call ${n}`);
        if (n === 1)
          return {
            toolCalls: [
              { id: "s1", name: "delegate_scout", arguments: { prompt: "Find A", blocking: false } },
              { id: "s2", name: "delegate_scout", arguments: { prompt: "Find B", blocking: false } },
              { id: "s3", name: "delegate_looper", arguments: { prompt: "Dig", blocking: false } },
            ],
          };
        if (n === 2) return { toolCalls: [{ id: "l1", name: "list_subagents", arguments: {} }] };
        if (n === 3) {
          // The children answer only now: the parent has made two more model calls while they ran.
          release.resolve();
          return { toolCalls: [{ id: "w1", name: "wait_subagents", arguments: {} }] };
        }
        return { content: "A is 1, B is 2; the dig did not finish." };
      }
      const task = lastMessage(r, "user")!;
      events.push(`${name} asked: ${task.split("\n").at(-1)}`);
      await release.promise;
      events.push(`${name} answers: ${task.split("\n").at(-1)}`);
      if (name === "SCOUT PROMPT") return { content: task.endsWith("Find A") ? "A is 1" : "B is 2" };
      // The looper (max_iterations 1) keeps asking for a tool it does not have, then wraps up.
      return task === LIMIT_WRAP_UP_MESSAGE
        ? { content: "Dug halfway: found the first layer." }
        : { toolCalls: [{ name: "dig", arguments: {} }] };
    });
    const { runner, traces } = setup();
    const res = await runner.run(req());
    expect(res.text).toBe("A is 1, B is 2; the dig did not finish.");

    // Ordering: the parent's second and third calls happened before any child answered.
    const firstAnswer = events.findIndex((e) => e.includes(" answers: "));
    expect(events.indexOf("boss call 2")).toBeLessThan(firstAnswer);
    expect(events.indexOf("boss call 3")).toBeLessThan(firstAnswer);
    expect(events.filter((e) => e.startsWith("boss call"))).toEqual([
      "boss call 1",
      "boss call 2",
      "boss call 3",
      "boss call 4",
    ]);

    // Spawning returned session ids at once.
    const spawned = messagesOf(bossCall(2)).filter((m) => m.role === "tool");
    expect(spawned.map((m) => m.content)).toEqual(
      ["sa-1 (agent scout)", "sa-2 (agent scout)", "sa-3 (agent looper)"].map(
        (s) =>
          `Started sub-agent session ${s} in the background. Its result reaches you when it ends; call wait_subagents to wait for it, list_subagents to see every session, cancel_subagent to stop it.`,
      ),
    );
    // [active_subagents] rides on each call once a child runs in the background.
    const running =
      "[active_subagents]\n- sa-1 · agent scout · running\n- sa-2 · agent scout · running\n- sa-3 · agent looper · running\n[/active_subagents]";
    expect(lastMessage(bossCall(2), "user")).toBe(running);
    expect(messagesOf(bossCall(2)).at(-1)!.content).toBe(running);
    expect(lastMessage(bossCall(1), "user")).not.toContain("[active_subagents]");
    // list_subagents, answered while the children were still held.
    expect(messagesOf(bossCall(3)).find((m) => m.tool_call_id === "l1")!.content).toBe(
      "sa-1 · agent scout · running\nsa-2 · agent scout · running\nsa-3 · agent looper · running",
    );

    // wait_subagents gathered both results and the hand-back.
    const waited = messagesOf(bossCall(4)).find((m) => m.tool_call_id === "w1")!.content;
    expect(waited).toBe(
      [
        "[subagent_result]\nsession: sa-1\nagent: scout\nstatus: completed\n\nA is 1\n[/subagent_result]",
        "[subagent_result]\nsession: sa-2\nagent: scout\nstatus: completed\n\nB is 2\n[/subagent_result]",
        "[subagent_result]\nsession: sa-3\nagent: looper\nstatus: incomplete\n\n" +
          "[SUBAGENT_INCOMPLETE]\nsession: sa-3\nagent: looper\n" +
          "reason: iteration_limit — stopped at its iteration limit (1) before a final answer\n" +
          "partial output:\nDug halfway: found the first layer.\n[/SUBAGENT_INCOMPLETE]\n[/subagent_result]",
      ].join("\n\n"),
    );
    expect(messagesOf(bossCall(4)).at(-1)!.content).toBe(
      "[active_subagents]\n- sa-1 · agent scout · completed\n- sa-2 · agent scout · completed\n- sa-3 · agent looper · incomplete\n[/active_subagents]",
    );

    // The trace is a tree: each spawn call names its child turn and session; each child points back.
    const boss = traces.find((t) => t.agentId === "boss")!;
    expect(traces.at(-1)).toBe(boss); // children are all recorded before the parent's turn ends
    const spawns = boss.toolCalls.filter((c) => c.name.startsWith("delegate_"));
    expect(spawns.map((c) => [c.name, c.subagentSessionId, c.outcome])).toEqual([
      ["delegate_scout", "sa-1", "executed"],
      ["delegate_scout", "sa-2", "executed"],
      ["delegate_looper", "sa-3", "executed"],
    ]);
    const children = traces.filter((t) => t.parentTurnId === boss.turnId);
    expect(children).toHaveLength(3);
    for (const call of spawns) {
      const child = children.find((t) => t.turnId === call.childTurnId)!;
      expect(child.subagentSessionId).toBe(call.subagentSessionId);
      expect(child.depth).toBe(1);
      // Children run on the parent's channel, under the same ceiling, never a wider one.
      expect(child.policy.channel).toBe("webhook");
      expect(child.policy.allowedPermission).toBe(boss.policy.allowedPermission);
    }
    const looper = children.find((t) => t.agentId === "looper")!;
    expect(looper.stop).toBe("limit_stop");
    expect(children.filter((t) => t.agentId === "scout").map((t) => t.stop)).toEqual([
      "finished",
      "finished",
    ]);
    expect(boss.toolCalls.map((c) => c.name)).toEqual([
      "delegate_scout",
      "delegate_scout",
      "delegate_looper",
      "list_subagents",
      "wait_subagents",
    ]);
  }, 20_000);

  it("cancels a running child: its hand-back says cancelled, its turn is recorded as aborted", async () => {
    const scoutAsked = deferred();
    server = await startScriptedLlmServer(async (r): Promise<ScriptedReply> => {
      if (who(r) === "SCOUT PROMPT") {
        scoutAsked.resolve();
        return { hang: true };
      }
      const tools = messagesOf(r).filter((m) => m.role === "tool");
      if (tools.length === 0)
        return {
          toolCalls: [{ id: "s1", name: "delegate_scout", arguments: { prompt: "Slow", blocking: false } }],
        };
      if (tools.length === 1) {
        await scoutAsked.promise; // the child's model call is in flight
        return { toolCalls: [{ id: "c1", name: "cancel_subagent", arguments: { session_id: "sa-1" } }] };
      }
      return { content: "Stopped the slow look-up." };
    });
    const { runner, traces } = setup();
    const res = await runner.run(req());
    expect(res.text).toBe("Stopped the slow look-up.");
    const boss = byAgent(server)("BOSS PROMPT");
    expect(boss).toHaveLength(3);
    expect(messagesOf(boss[2]!).find((m) => m.tool_call_id === "c1")!.content).toBe(
      "Cancelled sub-agent session sa-1 (agent scout).\n[SUBAGENT_INCOMPLETE]\nsession: sa-1\nagent: scout\n" +
        "reason: cancelled — cancelled by the parent agent\npartial output:\n(none)\n[/SUBAGENT_INCOMPLETE]",
    );
    expect(messagesOf(boss[2]!).at(-1)!.content).toBe(
      "[active_subagents]\n- sa-1 · agent scout · cancelled\n[/active_subagents]",
    );
    const scout = traces.find((t) => t.agentId === "scout")!;
    expect(scout.stop).toBe("aborted");
    expect(scout.error).toBe("cancelled by the parent agent");
    const cancelCall = traces
      .find((t) => t.agentId === "boss")!
      .toolCalls.find((c) => c.name === "cancel_subagent");
    expect(cancelCall).toMatchObject({ outcome: "executed", args: { session_id: "sa-1" } });
  }, 20_000);

  it("gathers a background child before the step ends: its result reaches the model, which answers again", async () => {
    server = await startScriptedLlmServer((r): ScriptedReply => {
      if (who(r) === "SCOUT PROMPT") return { content: "A is 1" };
      const n = byAgent(server!)("BOSS PROMPT").length;
      if (n === 1)
        return {
          toolCalls: [{ id: "s1", name: "delegate_scout", arguments: { prompt: "Find A", blocking: false } }],
        };
      if (n === 2) return { content: "Started the look-up." };
      return { content: "A is 1 (from the scout)." };
    });
    const { runner, traces } = setup();
    const res = await runner.run(req());
    expect(res.text).toBe("A is 1 (from the scout).");
    const third = bossCall(3);
    const msgs = third.body.messages as { role: string; content: string | null; tool_calls?: unknown }[];
    // Handed over as the result of a wait_subagents call the runtime makes: tool output, not a user message.
    expect(msgs.at(-3)).toMatchObject({
      role: "assistant",
      content: "Started the look-up.",
      tool_calls: [{ id: "subagent_results_1", function: { name: "wait_subagents", arguments: "{}" } }],
    });
    expect(msgs.at(-2)).toMatchObject({
      role: "tool",
      tool_call_id: "subagent_results_1",
      content:
        "[subagent_result]\nsession: sa-1\nagent: scout\nstatus: completed\n\nA is 1\n[/subagent_result]",
    });
    expect(msgs.filter((m) => m.role === "user").map((m) => m.content)).toEqual([
      "Find A and B.",
      "[active_subagents]\n- sa-1 · agent scout · completed\n[/active_subagents]",
    ]);
    const boss = traces.find((t) => t.agentId === "boss")!;
    expect(boss.toolCalls.at(-1)).toMatchObject({ name: "wait_subagents", automatic: true, iteration: 2 });
    expect(traces.map((t) => t.agentId)).toEqual(["scout", "boss"]);
  });

  it("stops the children when the step is cancelled, and records them before the step ends", async () => {
    const scoutAsked = deferred();
    const bossWaiting = deferred();
    server = await startScriptedLlmServer(async (r): Promise<ScriptedReply> => {
      if (who(r) === "SCOUT PROMPT") {
        scoutAsked.resolve();
        return { hang: true };
      }
      if (messagesOf(r).some((m) => m.role === "tool")) {
        bossWaiting.resolve();
        return { hang: true };
      }
      return {
        toolCalls: [{ id: "s1", name: "delegate_scout", arguments: { prompt: "Slow", blocking: false } }],
      };
    });
    const { runner, traces } = setup();
    const step = new AbortController();
    const run = runner.run(req({ signal: step.signal }));
    await Promise.all([scoutAsked.promise, bossWaiting.promise]);
    step.abort(new Error("step cancelled by the user"));
    await expect(run).rejects.toThrow("step cancelled by the user");
    expect(traces.map((t) => [t.agentId, t.stop])).toEqual([
      ["scout", "aborted"],
      ["boss", "aborted"],
    ]);
  });

  // 2 s leaves room for the spawn on a loaded machine; the assertion is on what happened, not when.
  it("stops the children when the step times out, recording why", async () => {
    server = await startScriptedLlmServer((r): ScriptedReply => {
      if (who(r) === "SCOUT PROMPT") return { hang: true };
      if (messagesOf(r).some((m) => m.role === "tool")) return { hang: true };
      return {
        toolCalls: [{ id: "s1", name: "delegate_scout", arguments: { prompt: "Slow", blocking: false } }],
      };
    });
    const { runner, traces } = setup();
    await expect(runner.run(req({ timeoutMs: 2000 }))).rejects.toThrow(
      "agent `boss` timed out after 2000 ms",
    );
    // The child's own deadline is the parent's remaining budget, so either timer may stop it first: the
    // parent's abort ("aborted", naming boss) or its own ("timeout", naming scout). Either way it ended
    // with the step, recorded why, and was recorded before the parent.
    expect(traces.map((t) => t.agentId)).toEqual(["scout", "boss"]);
    expect([traces[0]!.stop, traces[0]!.error]).toEqual(
      traces[0]!.stop === "aborted"
        ? ["aborted", "agent `boss` timed out after 2000 ms"]
        : ["timeout", expect.stringMatching(/^agent `scout` timed out after \d+ ms$/)],
    );
    expect([traces[1]!.stop, traces[1]!.error]).toEqual(["timeout", "agent `boss` timed out after 2000 ms"]);
  });

  it("continues a finished session with a follow-up that carries its earlier conversation", async () => {
    server = await startScriptedLlmServer((r): ScriptedReply => {
      if (who(r) === "SCOUT PROMPT")
        return { content: lastMessage(r, "user") === "And B?" ? "B is 2" : "A is 1" };
      const n = byAgent(server!)("BOSS PROMPT").length;
      if (n === 1)
        return { toolCalls: [{ id: "s1", name: "delegate_scout", arguments: { prompt: "Find A" } }] };
      if (n === 2)
        return {
          toolCalls: [
            {
              id: "f1",
              name: "continue_subagent",
              arguments: { session_id: "sa-1", message: "And B?", blocking: true },
            },
          ],
        };
      return { content: "A is 1, B is 2." };
    });
    const { runner, traces } = setup();
    expect((await runner.run(req())).text).toBe("A is 1, B is 2.");
    const scoutCalls = byAgent(server)("SCOUT PROMPT");
    expect(messagesOf(scoutCalls[1]!).map((m) => [m.role, m.content])).toEqual([
      ["system", expect.stringMatching(/^SCOUT PROMPT/)],
      ["user", "Task:\nFind A"],
      ["assistant", "A is 1"],
      ["user", "And B?"],
    ]);
    expect(messagesOf(bossCall(3)).find((m) => m.tool_call_id === "f1")!.content).toBe("B is 2");
    const scouts = traces.filter((t) => t.agentId === "scout");
    expect(scouts.map((t) => t.subagentSessionId)).toEqual(["sa-1", "sa-1"]);
    const boss = traces.find((t) => t.agentId === "boss")!;
    expect(boss.toolCalls.map((c) => c.childTurnId)).toEqual(scouts.map((t) => t.turnId));
  });

  it("refuses a background spawn past the run's sub-agent limit, naming the limit", async () => {
    const release = deferred();
    server = await startScriptedLlmServer(async (r): Promise<ScriptedReply> => {
      if (who(r) === "SCOUT PROMPT") {
        await release.promise;
        return { content: "A is 1" };
      }
      const n = byAgent(server!)("BOSS PROMPT").length;
      if (n === 1)
        return {
          toolCalls: [
            { id: "s1", name: "delegate_scout", arguments: { prompt: "Find A", blocking: false } },
            { id: "s2", name: "delegate_scout", arguments: { prompt: "Find B", blocking: false } },
          ],
        };
      release.resolve();
      return { content: "Only A started." };
    });
    const { runner } = setup({ maxConcurrentSubagents: 1 });
    await runner.run(req());
    const tools = messagesOf(bossCall(2)).filter((m) => m.role === "tool");
    expect(tools[1]!.content).toBe(
      "Error: tool `delegate_scout` failed: delegation to `scout` refused: this agent run already has 1 sub-agent running (the limit); wait for an answer before delegating more",
    );
    expect(byAgent(server)("SCOUT PROMPT")).toHaveLength(1);
  });
});

describe("a child's ceiling", () => {
  it("is never wider than its parent's: a read_only parent on a manual run cannot have a child write", async () => {
    const note = recordingTool("write_note", "write");
    const family = defineAgents(
      [
        {
          folder: "careful",
          toml: 'id = "careful"\nwhen_to_use = "x"\nagent_tier = "reasoning"\nsandbox_mode = "read_only"\n[tools]\nnamed = []\n[subagents]\nallowlist = ["writer"]',
          prompt: "CAREFUL PROMPT",
        },
        {
          folder: "writer",
          toml: 'id = "writer"\nwhen_to_use = "writes"\n[tools]\nnamed = ["write_note"]',
          prompt: "WRITER PROMPT",
        },
      ],
      [{ name: "write_note", permission: "write" }],
    );
    server = await startScriptedLlmServer((r): ScriptedReply => {
      const tools = messagesOf(r).filter((m) => m.role === "tool");
      if (who(r) === "WRITER PROMPT")
        return tools.length === 0
          ? { toolCalls: [{ name: "write_note", arguments: { text: "hello" } }] }
          : { content: "could not write" };
      return tools.length === 0
        ? { toolCalls: [{ name: "delegate_writer", arguments: { prompt: "Write a note" } }] }
        : { content: "done" };
    });
    const traces: AgentTurnTrace[] = [];
    const runner = createAgentRunner({
      definitions: family,
      tools: [note],
      provider: createOpenAiCompatibleProvider({ baseUrl: server.url, maxRetries: 0 }),
      modelForHint: () => "m",
      channelCeilings: DEFAULT_CHANNEL_CEILINGS,
      onTrace: (t) => traces.push(t),
    });
    await runner.run(req({ agentRef: "careful", channel: "manual" }));
    const writer = traces.find((t) => t.agentId === "writer")!;
    expect(traces.find((t) => t.agentId === "careful")!.policy.allowedPermission).toBe("read_only");
    expect(writer.policy.allowedPermission).toBe("read_only");
    expect(writer.toolCalls[0]).toMatchObject({ name: "write_note", decision: "deny", outcome: "refused" });
    expect(note.calls).toHaveLength(0);

    // The same writer started by the flow itself on a manual run may write: the cap came from the parent.
    const before = traces.length;
    server.requests.length = 0;
    await runner.run(req({ agentRef: "writer", channel: "manual", prompt: "Write a note" }));
    expect(traces.slice(before)[0]!.policy.allowedPermission).toBe("execute");
    expect(note.calls).toHaveLength(1);
  });
});

describe("[SUBAGENT_INCOMPLETE] for a child that times out", () => {
  it("hands back the timeout with the child's last words when a waited-for child passes its timeout_secs", async () => {
    server = await startScriptedLlmServer((r): ScriptedReply => {
      if (who(r) === "SLOWPOKE PROMPT") {
        // First call answers with a note and a tool call; the second never answers.
        return messagesOf(r).some((m) => m.role === "tool")
          ? { hang: true }
          : { content: "Looked at the first half.", toolCalls: [{ name: "nothing", arguments: {} }] };
      }
      const n = byAgent(server!)("BOSS PROMPT").length;
      return n === 1
        ? { toolCalls: [{ id: "p1", name: "delegate_slowpoke", arguments: { prompt: "Take your time" } }] }
        : { content: "The slow part timed out." };
    });
    const { runner, traces } = setup();
    await runner.run(req());
    expect(messagesOf(bossCall(2)).find((m) => m.tool_call_id === "p1")!.content).toBe(
      "[SUBAGENT_INCOMPLETE]\nsession: sa-1\nagent: slowpoke\nreason: timeout — agent `slowpoke` timed out after 1000 ms\n" +
        "partial output:\nLooked at the first half.\n[/SUBAGENT_INCOMPLETE]",
    );
    expect(traces.find((t) => t.agentId === "slowpoke")!.stop).toBe("timeout");
    expect(traces.find((t) => t.agentId === "boss")!.toolCalls[0]).toMatchObject({ incomplete: "timeout" });
  });
});

describe("max_result_chars on the delegation path", () => {
  it("caps a child's over-long answer before the parent sees it, marker included, and records the cut", async () => {
    const long = "0123456789".repeat(50);
    server = await startScriptedLlmServer((r): ScriptedReply => {
      if (who(r) === "VERBOSE PROMPT") return { content: long };
      const n = byAgent(server!)("BOSS PROMPT").length;
      return n === 1
        ? { toolCalls: [{ id: "v1", name: "delegate_verbose", arguments: { prompt: "Talk" } }] }
        : { content: "ok" };
    });
    const { runner, traces } = setup();
    await runner.run(req());
    const seen = messagesOf(bossCall(2)).find((m) => m.tool_call_id === "v1")!.content!;
    expect(seen).toBe(`${long.slice(0, 85)}\n[...truncated]`);
    expect([...seen]).toHaveLength(100);
    expect(traces.find((t) => t.agentId === "verbose")!.truncation).toEqual({
      limit: 100,
      originalLength: 500,
    });
  });
});
