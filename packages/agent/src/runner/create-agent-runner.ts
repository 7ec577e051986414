/**
 * `createAgentRunner`: the AgentRunner the executor hands to agent nodes as `ctx.agents`.
 * Resolves the definition, builds the run message, limits concurrency process-wide and runs a turn.
 */
import { type AgentDefinition, effectiveMaxIterations, type ModelHint } from "../definitions/schema";
import type { LlmProvider } from "../llm/provider";
import type { TraceSink } from "../loop/trace";
import { buildRunMessage } from "../prompt/run-message";
import { fromMemoryTool, type MemoryToolLike, type Tool } from "../tools/tool";
import type { AgentRunner, AgentRunRequest, AgentRunResult } from "../contract";
import { DEFAULT_RETRIEVAL_ONLY_AGENTS } from "./retrieval-only";
import { Semaphore } from "./semaphore";
import { runTurn, type TurnEnvironment, type UserFiles } from "./turn";

/** The memory service as the runner needs it: its read tools and the user files. */
export interface AgentMemory {
  tools: readonly MemoryToolLike[];
  /** Sync or async: @switchyard/memory's `readUserFiles(reader)` is synchronous. */
  readUserFiles(): UserFiles | Promise<UserFiles>;
}

export interface AgentRunnerOptions {
  /** The loaded definitions, or a getter so a reload (or removal) is seen by the next step. */
  definitions: ReadonlyMap<string, AgentDefinition> | (() => ReadonlyMap<string, AgentDefinition>);
  /** Host tools (e.g. http_get). Memory tools come from `memory`. */
  tools?: readonly Tool[];
  memory?: AgentMemory;
  provider?: LlmProvider;
  /** Maps `[model] hint` (undefined = inherit) to a concrete model id from settings. */
  modelForHint: (hint: ModelHint | undefined) => string;
  /** Channel → permission ceiling (raw settings strings, parsed leniently). */
  channelCeilings: Readonly<Record<string, string>> | ReadonlyMap<string, string>;
  /** Process-wide limit on concurrent agent steps (default 8). Delegated children share their parent's slot. */
  concurrency?: number;
  onTrace?: TraceSink;
  /** Strings (API keys, tokens) scrubbed from every trace before it leaves the runner. */
  redact?: readonly string[];
  /** Agents that answer in retrieval-only mode when no provider is set. */
  retrievalOnlyAgents?: readonly string[];
  /** Cap on each tool result handed back to the model (default 20 000 characters). */
  maxToolResultChars?: number;
  /** Tool calls of one model response running at once (default 4); the rest queue. */
  maxParallelToolCalls?: number;
  /** Tool calls one model response may make (default 16); the rest are refused with an error the model sees. */
  maxToolCallsPerResponse?: number;
  /** Sub-agents running at once in one agent run, nested delegation included (default 4); more are refused. */
  maxConcurrentSubagents?: number;
}

/**
 * What the host may add to a request: tools bound to the flow step that asked (the tools that act, which
 * need the step's run, credentials and sub-flow caller). They join the runner's tools for this request
 * and its delegated children, and go through the same policy session as every other tool.
 */
export interface HostAgentRunRequest extends AgentRunRequest {
  tools?: readonly Tool[];
}

export interface ManagedAgentRunner extends AgentRunner {
  run(req: HostAgentRunRequest): Promise<AgentRunResult>;
  /** Steps running now / waiting for a slot. */
  readonly active: number;
  readonly queued: number;
}

export class AgentOutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentOutputError";
  }
}

export function createAgentRunner(opts: AgentRunnerOptions): ManagedAgentRunner {
  const definitions =
    typeof opts.definitions === "function"
      ? opts.definitions
      : () => opts.definitions as ReadonlyMap<string, AgentDefinition>;
  const memoryTools = (opts.memory?.tools ?? []).map(fromMemoryTool);
  const tools = [...memoryTools, ...(opts.tools ?? [])];
  const names = new Set<string>();
  for (const t of tools) {
    if (names.has(t.name)) throw new Error(`tool \`${t.name}\` is registered twice`);
    names.add(t.name);
  }
  const semaphore = new Semaphore(opts.concurrency ?? 8);
  const env: TurnEnvironment = {
    definitions,
    tools,
    ...(opts.provider ? { provider: opts.provider } : {}),
    modelForHint: opts.modelForHint,
    channelCeilings: opts.channelCeilings,
    ...(opts.memory ? { readUserFiles: () => opts.memory!.readUserFiles() } : {}),
    retrievalOnlyAgents: new Set(opts.retrievalOnlyAgents ?? DEFAULT_RETRIEVAL_ONLY_AGENTS),
    ...(opts.onTrace ? { onTrace: opts.onTrace } : {}),
    redact: opts.redact ?? [],
    ...(opts.maxToolResultChars !== undefined ? { maxToolResultChars: opts.maxToolResultChars } : {}),
    ...(opts.maxParallelToolCalls !== undefined ? { maxParallelToolCalls: opts.maxParallelToolCalls } : {}),
    ...(opts.maxToolCallsPerResponse !== undefined
      ? { maxToolCallsPerResponse: opts.maxToolCallsPerResponse }
      : {}),
    ...(opts.maxConcurrentSubagents !== undefined
      ? { maxConcurrentSubagents: opts.maxConcurrentSubagents }
      : {}),
  };

  return {
    get active() {
      return semaphore.active;
    },
    get queued() {
      return semaphore.queued;
    },
    async run(req: HostAgentRunRequest): Promise<AgentRunResult> {
      const definition = definitions().get(req.agentRef);
      if (!definition) throw new Error(`unknown agent_ref '${req.agentRef}'`);
      const release = await semaphore.acquire(req.signal);
      try {
        const format = req.responseFormat?.type === "json" ? "json" : "text";
        // A per-request sink sees this step's turns (and its delegated children) next to the global one.
        let turnEnv: TurnEnvironment = req.onTrace
          ? {
              ...env,
              onTrace: (trace) => {
                env.onTrace?.(trace);
                req.onTrace?.(trace);
              },
            }
          : env;
        if (req.tools && req.tools.length > 0)
          turnEnv = { ...turnEnv, tools: withStepTools(tools, req.tools) };
        const result = await runTurn(turnEnv, {
          definition,
          userMessage: buildRunMessage({
            prompt: req.prompt,
            inputContext: req.inputContext,
            ...(req.responseFormat ? { responseFormat: req.responseFormat } : {}),
          }),
          prompt: req.prompt,
          inputContext: req.inputContext,
          channel: req.channel,
          responseFormat: format,
          ...(req.model ? { model: req.model } : {}),
          timeoutMs: req.timeoutMs,
          signal: req.signal,
          depth: 0,
        });
        const out: AgentRunResult = { text: result.text, agent_ref: definition.id, stop: result.stop };
        if (result.stop === "limit_stop") out.maxIterations = effectiveMaxIterations(definition);
        if (result.usage.promptTokens > 0 || result.usage.completionTokens > 0)
          out.usage = { ...result.usage };
        // A wrap-up answer after the limit is often not JSON: the step's on_limit decides, not a parse error.
        if (format === "json" && result.stop === "limit_stop") {
          try {
            out.json = parseJsonAnswer(definition.id, result.text);
          } catch {
            // left unset: the node reports the limit (or, with return_partial, the non-JSON answer)
          }
        } else if (format === "json") out.json = parseJsonAnswer(definition.id, result.text);
        return out;
      } finally {
        release();
      }
    },
  };
}

/** The runner's tools plus a step's; a step tool may not shadow a runner tool (that would swap its code). */
function withStepTools(tools: readonly Tool[], stepTools: readonly Tool[]): Tool[] {
  const names = new Set(tools.map((t) => t.name));
  for (const t of stepTools) {
    if (names.has(t.name)) throw new Error(`tool \`${t.name}\` is registered twice`);
    names.add(t.name);
  }
  return [...tools, ...stepTools];
}

/** The model was told: one JSON object, no fences. Tolerate a stray fence; refuse anything else. */
export function parseJsonAnswer(agentId: string, text: string): unknown {
  const trimmed = text.trim();
  const fenced = trimmed.match(/^```[a-zA-Z]*\n([\s\S]*)\n```$/);
  const candidate = fenced ? fenced[1]! : trimmed;
  try {
    return JSON.parse(candidate);
  } catch {
    const excerpt = trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed;
    throw new AgentOutputError(
      `agent \`${agentId}\` was asked for JSON but answered with text that is not valid JSON: ${excerpt}`,
    );
  }
}
