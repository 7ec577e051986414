/**
 * One agent turn, used for the agent the flow started and for every delegated child: policy
 * session → system prompt → loop (or retrieval-only) → max_result_chars → trace.
 */
import { randomUUID } from "node:crypto";
import { capChars } from "@switchyard/contracts/cap";
import { type AgentDefinition, effectiveMaxIterations, type ModelHint } from "../definitions/schema";
import type { ChatMessage, LlmProvider, TokenUsage } from "../llm/provider";
import { runAgentLoop } from "../loop/agent-loop";
import { dispatchToolCall } from "../loop/tool-dispatch";
import { createDelegateTools } from "../loop/delegate-tools";
import { SubagentRegistry } from "../loop/subagent-sessions";
import { createSubagentTools } from "../loop/subagent-tools";
import { DEFAULT_MAX_CONCURRENT_SUBAGENTS, type SubagentBudget } from "../loop/limit";
import type { AgentTurnTrace, LlmCallTrace, ToolCallTrace, TraceSink } from "../loop/trace";
import { redactTrace } from "../loop/trace";
import { agentSession } from "../policy/agent-session";
import type { PermissionLevel } from "../policy/permission";
import { snapshotSession, type ToolPolicySession } from "../policy/session";
import { buildSystemPrompt } from "../prompt/system-prompt";
import type { Tool } from "../tools/tool";
import { retrievalOnlyAnswer } from "./retrieval-only";

export const NO_PROVIDER_MESSAGE = "no LLM provider configured — set it in Settings › Models";

export class AgentTimeoutError extends Error {
  constructor(agentId: string, timeoutMs: number) {
    super(`agent \`${agentId}\` timed out after ${timeoutMs} ms`);
    this.name = "AgentTimeoutError";
  }
}

export interface UserFiles {
  profile?: string | null;
  memory?: string | null;
}

/** Everything a turn needs from the runner; shared by the whole delegation tree. */
export interface TurnEnvironment {
  definitions: () => ReadonlyMap<string, AgentDefinition>;
  tools: readonly Tool[];
  provider?: LlmProvider;
  modelForHint: (hint: ModelHint | undefined) => string;
  channelCeilings: Readonly<Record<string, string>> | ReadonlyMap<string, string>;
  readUserFiles?: () => UserFiles | Promise<UserFiles>;
  retrievalOnlyAgents: ReadonlySet<string>;
  onTrace?: TraceSink;
  redact: readonly string[];
  maxToolResultChars?: number;
  maxParallelToolCalls?: number;
  maxToolCallsPerResponse?: number;
  maxConcurrentSubagents?: number;
}

export interface TurnRequest {
  definition: AgentDefinition;
  /** The full user-role message (run message or rendered hand-off). */
  userMessage: string;
  /** The task alone, for retrieval-only queries and memory context. */
  prompt: string;
  inputContext: unknown;
  channel: string;
  responseFormat: "text" | "json";
  model?: string;
  timeoutMs: number;
  signal: AbortSignal;
  depth: number;
  parentTurnId?: string;
  /** The run's sub-agent budget, shared down the delegation tree (created by the first turn). */
  subagents?: SubagentBudget;
  /** Set for a delegated turn: its id (known to the parent's trace before it starts) and session. */
  turnId?: string;
  subagentSessionId?: string;
  /** A sub-agent session's earlier conversation, continued by this turn. */
  history?: readonly ChatMessage[];
  /** A delegated turn: the parent's effective ceiling; the child's is never wider. */
  parentCeiling?: PermissionLevel;
}

export interface TurnResult {
  text: string;
  stop: "finished" | "limit_stop";
  usage: TokenUsage;
  turnId: string;
  /** The conversation without the system prompt (empty in retrieval-only mode). */
  transcript: ChatMessage[];
}

export async function runTurn(env: TurnEnvironment, req: TurnRequest): Promise<TurnResult> {
  const def = req.definition;
  const turnId = req.turnId ?? randomUUID();
  const started = performance.now();
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  const llmCalls: LlmCallTrace[] = [];
  const toolCalls: ToolCallTrace[] = [];
  const timeoutMs = Math.min(
    req.timeoutMs,
    def.timeoutSecs !== undefined ? def.timeoutSecs * 1000 : Number.POSITIVE_INFINITY,
  );
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new AgentTimeoutError(def.id, timeoutMs)), timeoutMs);
  const signal = AbortSignal.any([req.signal, deadline.signal]);
  const deadlineAt = Date.now() + timeoutMs;

  const budget: SubagentBudget = req.subagents ?? {
    running: 0,
    limit: env.maxConcurrentSubagents ?? DEFAULT_MAX_CONCURRENT_SUBAGENTS,
  };
  // Every delegation of this turn is a sub-agent session; children run under this turn's signal
  // (its deadline included) on the same channel, so never under a wider ceiling than the parent's.
  const registry = new SubagentRegistry({
    parentSignal: signal,
    budget,
    newTurnId: randomUUID,
    start: async (child, start) => {
      const result = await runTurn(env, {
        definition: child,
        userMessage: start.userMessage,
        prompt: start.prompt,
        inputContext: null,
        channel: req.channel,
        responseFormat: "text",
        ...(start.model ? { model: start.model } : {}),
        timeoutMs: Math.max(1, deadlineAt - Date.now()),
        signal: start.signal,
        depth: req.depth + 1,
        parentTurnId: turnId,
        turnId: start.turnId,
        subagentSessionId: start.sessionId,
        history: start.history,
        subagents: budget,
        parentCeiling: session.profile.allowedPermission,
      });
      usage.promptTokens += result.usage.promptTokens;
      usage.completionTokens += result.usage.completionTokens;
      return {
        text: result.text,
        stop: result.stop,
        turnId: result.turnId,
        transcript: result.transcript,
        maxIterations: effectiveMaxIterations(child),
      };
    },
  });
  const delegates =
    def.subagents.length > 0
      ? [...createDelegateTools(def, env.definitions(), registry), ...createSubagentTools(registry)]
      : [];
  const session = sessionFor(env, def, req.channel, delegates, req.parentCeiling);
  const toolMap = new Map<string, Tool>([...env.tools, ...delegates].map((t) => [t.name, t]));
  const retrievalOnly = !env.provider && env.retrievalOnlyAgents.has(def.id);
  const model = env.provider ? (req.model ?? def.model.exact ?? env.modelForHint(def.model.hint)) : null;

  const trace: AgentTurnTrace = {
    turnId,
    ...(req.parentTurnId ? { parentTurnId: req.parentTurnId } : {}),
    ...(req.subagentSessionId ? { subagentSessionId: req.subagentSessionId } : {}),
    depth: req.depth,
    agentId: def.id,
    agentTier: def.agentTier,
    versionHash: def.versionHash,
    mode: retrievalOnly ? "retrieval_only" : "llm",
    provider: env.provider?.name ?? null,
    model,
    policy: snapshotSession(session),
    llmCalls,
    toolCalls,
    stop: "error",
    maxIterations: effectiveMaxIterations(def),
    truncation: null,
    usage,
    durationMs: 0,
  };

  try {
    let text: string;
    let stop: "finished" | "limit_stop" = "finished";
    let transcript: ChatMessage[] = [];
    const needsFiles = !def.omit.profile || !def.omit.memoryMd;
    if (retrievalOnly) {
      const files = needsFiles && env.readUserFiles ? await env.readUserFiles() : {};
      text = await retrievalOnlyAnswer({
        agentId: def.id,
        prompt: req.prompt,
        inputContext: req.inputContext,
        session,
        tools: toolMap,
        profile: def.omit.profile ? null : (files.profile ?? null),
        signal,
        depth: req.depth,
        toolCalls,
      });
    } else if (!env.provider || model === null) {
      throw new Error(NO_PROVIDER_MESSAGE);
    } else {
      const files = needsFiles && env.readUserFiles ? await env.readUserFiles() : {};
      const memoryContext = def.omit.memoryContext
        ? null
        : await recallContext(session, toolMap, req, signal, toolCalls);
      const systemPrompt = buildSystemPrompt({
        definition: def,
        session,
        tools: [...toolMap.values()],
        userFiles: files,
        memoryContext,
        responseFormat: req.responseFormat,
      });
      const out = await runAgentLoop({
        definition: def,
        provider: env.provider,
        model,
        systemPrompt,
        userMessage: req.userMessage,
        session,
        tools: toolMap,
        signal,
        depth: req.depth,
        llmCalls,
        toolCalls,
        usage,
        ...(req.history ? { history: req.history } : {}),
        ...(delegates.length > 0 ? { subagents: registry } : {}),
        ...(env.maxToolResultChars !== undefined ? { maxToolResultChars: env.maxToolResultChars } : {}),
        ...(env.maxParallelToolCalls !== undefined ? { maxParallelToolCalls: env.maxParallelToolCalls } : {}),
        ...(env.maxToolCallsPerResponse !== undefined
          ? { maxToolCallsPerResponse: env.maxToolCallsPerResponse }
          : {}),
      });
      text = out.text;
      stop = out.stop;
      transcript = out.transcript;
    }
    if (def.maxResultChars !== undefined) {
      const capped = capChars(text, def.maxResultChars);
      if (capped.truncated)
        trace.truncation = { limit: def.maxResultChars, originalLength: capped.originalLength };
      text = capped.text;
    }
    trace.stop = stop;
    return { text, stop, usage, turnId, transcript };
  } catch (err) {
    const reason = deadline.signal.aborted
      ? deadline.signal.reason
      : req.signal.aborted
        ? req.signal.reason
        : err;
    trace.stop = deadline.signal.aborted ? "timeout" : req.signal.aborted ? "aborted" : "error";
    trace.error = reason instanceof Error ? reason.message : String(reason);
    // The turn id links a failed child to the parent's call; the partial text goes into its hand-back.
    if (reason instanceof Error) Object.assign(reason, { turnId, partial: lastWords(llmCalls) });
    throw reason;
  } finally {
    // No child outlives its parent's turn: whatever still runs is stopped and waited for.
    await registry.shutdown(
      signal.aborted ? signal.reason : new Error(`the parent turn of \`${def.id}\` ended`),
    );
    clearTimeout(timer);
    trace.durationMs = Math.round(performance.now() - started);
    emit(env, trace);
  }
}

function sessionFor(
  env: TurnEnvironment,
  def: AgentDefinition,
  channel: string,
  delegates: Tool[],
  parentCeiling: PermissionLevel | undefined,
): ToolPolicySession {
  return agentSession({
    def,
    channel,
    ceilings: env.channelCeilings,
    tools: env.tools,
    delegates,
    ...(parentCeiling ? { parentCeiling } : {}),
  }).session;
}

/** omit_memory_context = false: one memory_recall on the task, only when the policy allows it. */
async function recallContext(
  session: ToolPolicySession,
  tools: ReadonlyMap<string, Tool>,
  req: TurnRequest,
  signal: AbortSignal,
  toolCalls: ToolCallTrace[],
): Promise<string | null> {
  if (!tools.has("memory_recall") || !session.isAllowed("memory_recall")) return null;
  const call = {
    id: "memory_context",
    name: "memory_recall",
    arguments: JSON.stringify({ query: req.prompt }),
  };
  const r = await dispatchToolCall(call, 0, session, tools, {
    signal,
    agentId: req.definition.id,
    depth: req.depth,
  });
  toolCalls.push(r.trace);
  return r.trace.outcome === "executed" ? r.content : null;
}

/** The last text the model produced in this turn, for a hand-back when the turn did not finish. */
function lastWords(llmCalls: readonly LlmCallTrace[]): string {
  for (let i = llmCalls.length - 1; i >= 0; i--) {
    const content = llmCalls[i]!.response?.content;
    if (content?.trim()) return content;
  }
  return "";
}

function emit(env: TurnEnvironment, trace: AgentTurnTrace): void {
  if (!env.onTrace) return;
  try {
    env.onTrace(redactTrace(trace, env.redact));
  } catch {
    // A broken trace sink must not turn a finished agent step into a failed one.
  }
}
