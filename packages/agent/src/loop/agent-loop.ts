/**
 * The LLM ↔ tool loop of one agent turn. Pure orchestration: the caller supplies the provider,
 * the policy session, the tools and a signal that already carries the turn's deadline.
 */
import { z } from "zod";
import type { AgentDefinition } from "../definitions/schema";
import { effectiveMaxIterations } from "../definitions/schema";
import type { ChatMessage, LlmProvider, TokenUsage, ToolCall, ToolSpec } from "../llm/provider";
import type { ToolPolicySession } from "../policy/session";
import { promptVisibleTools } from "../prompt/system-prompt";
import type { Tool } from "../tools/tool";
import { DEFAULT_MAX_PARALLEL_TOOL_CALLS, DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE, mapWithLimit } from "./limit";
import { type DispatchResult, dispatchToolCall } from "./tool-dispatch";
import type { LlmCallTrace, ToolCallTrace } from "./trace";

export const LIMIT_WRAP_UP_MESSAGE =
  "You have reached the tool-call limit for this step. Do not call any more tools: give your best final answer now from what you have gathered, and say what is missing.";

export interface AgentLoopInput {
  definition: AgentDefinition;
  provider: LlmProvider;
  model: string;
  systemPrompt: string;
  userMessage: string;
  session: ToolPolicySession;
  tools: ReadonlyMap<string, Tool>;
  signal: AbortSignal;
  depth: number;
  maxToolResultChars?: number;
  /** Calls of one response running at once (default 4); the rest queue. */
  maxParallelToolCalls?: number;
  /** Calls one response may make (default 16); the rest are refused, and the model is told. */
  maxToolCallsPerResponse?: number;
  /** Trace arrays the loop appends to as it goes, so a failed turn still shows what happened. */
  llmCalls: LlmCallTrace[];
  toolCalls: ToolCallTrace[];
  /** Shared with delegate tools so child usage lands in the same sum. */
  usage: TokenUsage;
  /** An earlier conversation to continue (a sub-agent session's follow-up), without the system prompt. */
  history?: readonly ChatMessage[];
  /** The turn's sub-agent sessions, when the agent may delegate. */
  subagents?: LoopSubagents;
}

/** What the loop needs from the sub-agent registry (see subagent-sessions.ts). */
export interface LoopSubagents {
  /** `[active_subagents]` for the next model call, or null when there is nothing to show. */
  activeBlock(): string | null;
  /** Results of children that ended since the last call, each once. */
  takeFinished(): string[];
  /** A child still runs, or its result has not reached the model yet. */
  pending(): boolean;
  /** Waits for every running child. */
  settle(): Promise<void>;
}

export interface AgentLoopOutput {
  text: string;
  stop: "finished" | "limit_stop";
  iterations: number;
  /** The conversation without the system prompt, final answer included (continued by a follow-up). */
  transcript: ChatMessage[];
}

export async function runAgentLoop(input: AgentLoopInput): Promise<AgentLoopOutput> {
  const { definition, session, signal } = input;
  const offered = promptVisibleTools(session, [...input.tools.values()]);
  const specs = offered.map(toolSpec);
  const messages: ChatMessage[] = [
    { role: "system", content: input.systemPrompt },
    ...(input.history ?? []),
    { role: "user", content: input.userMessage },
  ];
  const maxIterations = effectiveMaxIterations(definition);
  const sub = input.subagents;
  const done = (text: string, stop: AgentLoopOutput["stop"], iterations: number): AgentLoopOutput => ({
    text,
    stop,
    iterations,
    transcript: [...messages.slice(1), { role: "assistant", content: text }],
  });
  // Results of background children reach the model as soon as they exist, before its next call, as
  // the result of a wait_subagents call the runtime makes for it: a child's answer is tool output
  // (data), never a user-role message.
  let deliveries = 0;
  const deliver = (iteration: number, content: string | null = null) => {
    const results = sub?.takeFinished() ?? [];
    if (results.length === 0) {
      if (content !== null) messages.push({ role: "assistant", content });
      return;
    }
    const id = `subagent_results_${++deliveries}`;
    messages.push({
      role: "assistant",
      content,
      toolCalls: [{ id, name: "wait_subagents", arguments: "{}" }],
    });
    const result = results.join("\n\n");
    messages.push({ role: "tool", toolCallId: id, name: "wait_subagents", content: result });
    input.toolCalls.push({
      iteration,
      id,
      name: "wait_subagents",
      args: {},
      decision: "allow",
      outcome: "executed",
      result,
      latencyMs: 0,
      automatic: true,
    });
  };

  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    deliver(iteration - 1);
    const res = await callModel(input, messages, specs, iteration);
    if (res.toolCalls.length === 0) {
      // The step never ends with children at work: gather them, show the model, let it answer again.
      if (sub?.pending()) {
        await sub.settle();
        signal.throwIfAborted();
        deliver(iteration, res.content ?? "");
        if (iteration < maxIterations) continue;
        const last = await callModel(input, messages, [], iteration + 1);
        return done(last.content ?? "", "finished", iteration + 1);
      }
      return done(res.content ?? "", "finished", iteration);
    }
    messages.push({ role: "assistant", content: res.content, toolCalls: res.toolCalls });
    const ctx = { signal, agentId: definition.id, depth: input.depth };
    // Calls of one response run side by side (independent look-ups, parallel delegation), a few at
    // a time, and past a cap not at all; results go back in the order the model asked for them.
    const cap = input.maxToolCallsPerResponse ?? DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE;
    const run = await mapWithLimit(
      res.toolCalls.slice(0, cap),
      input.maxParallelToolCalls ?? DEFAULT_MAX_PARALLEL_TOOL_CALLS,
      (call) => dispatchToolCall(call, iteration, session, input.tools, ctx, input.maxToolResultChars),
    );
    const results = [...run, ...res.toolCalls.slice(cap).map((call) => overCap(call, iteration, cap))];
    for (const [i, r] of results.entries()) {
      const call = res.toolCalls[i]!;
      input.toolCalls.push(r.trace);
      messages.push({ role: "tool", toolCallId: call.id, name: call.name, content: r.content });
    }
  }

  // Cap reached while the model still wanted tools: gather the children, then one last call without
  // tools for an answer.
  if (sub?.pending()) {
    await sub.settle();
    signal.throwIfAborted();
    deliver(maxIterations);
  }
  messages.push({ role: "user", content: LIMIT_WRAP_UP_MESSAGE });
  const last = await callModel(input, messages, [], maxIterations + 1);
  return done(last.content ?? "", "limit_stop", maxIterations);
}

/** A call past the per-response cap: not run, refused in the trace and to the model. */
function overCap(call: ToolCall, iteration: number, cap: number): DispatchResult {
  const refusal = `Error: this call was not run: one response may make at most ${cap} tool calls. Make it again in a later step if you still need it.`;
  return {
    content: refusal,
    trace: {
      iteration,
      id: call.id,
      name: call.name,
      args: call.arguments,
      decision: "deny",
      outcome: "refused",
      refusal,
      reason: `over the limit of ${cap} tool calls per response`,
      latencyMs: 0,
    },
  };
}

async function callModel(
  input: AgentLoopInput,
  messages: ChatMessage[],
  specs: ToolSpec[],
  iteration: number,
) {
  input.signal.throwIfAborted();
  const started = performance.now();
  // [active_subagents] rides on this call only: it is a snapshot, not part of the conversation.
  const active = input.subagents?.activeBlock();
  const sent: ChatMessage[] = active ? [...messages, { role: "user", content: active }] : [...messages];
  const entry: LlmCallTrace = {
    iteration,
    model: input.model,
    messages: sent,
    tools: specs.map((s) => s.name),
    latencyMs: 0,
  };
  input.llmCalls.push(entry);
  try {
    const res = await input.provider.chat({
      model: input.model,
      messages: sent,
      tools: specs,
      temperature: input.definition.temperature,
      signal: input.signal,
    });
    entry.latencyMs = Math.round(performance.now() - started);
    entry.response = { content: res.content, toolCalls: res.toolCalls, finishReason: res.finishReason };
    if (res.usage) {
      entry.usage = res.usage;
      input.usage.promptTokens += res.usage.promptTokens;
      input.usage.completionTokens += res.usage.completionTokens;
    }
    return res;
  } catch (err) {
    entry.latencyMs = Math.round(performance.now() - started);
    entry.error = err instanceof Error ? err.message : String(err);
    throw err;
  }
}

export function toolSpec(tool: Tool): ToolSpec {
  let parameters: Record<string, unknown>;
  try {
    parameters = z.toJSONSchema(tool.inputSchema, { io: "input", unrepresentable: "any" }) as Record<
      string,
      unknown
    >;
    delete parameters.$schema;
  } catch {
    parameters = { type: "object" };
  }
  return { name: tool.name, description: tool.description, parameters };
}
