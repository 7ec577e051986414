import type { HostAgentRunRequest, Tool } from "@switchyard/agent";
import type {
  AgentRunResult,
  ConnectionPools,
  HttpClient,
  Item,
  NodeContext,
  NodeRegistry,
  RunChannel,
  SecretsReader,
  SharedConnections,
  SubflowCaller,
} from "@switchyard/engine";
import {
  createExpressionEvaluator,
  NodeError,
  type RunProgressEvent,
  runFlow,
  type StepStore,
} from "@switchyard/engine";
import type { Logger } from "../logger";
import type { ClaimedRun, RunOutcome } from "../queue/types";
import type { RunExecutor } from "../worker/worker";
import { boundedJson, rememberJson } from "./bounded-json";
import type { FlowCache } from "./flow-cache";
import type { ResponseHub } from "./response-hub";
import type { StepExtras } from "./step-extras";
import type { StepRuns } from "./step-runs";

export interface ExecutorDeps {
  flows: FlowCache;
  registry: NodeRegistry;
  stepStore: StepStore;
  responses: ResponseHub;
  extras: StepExtras;
  log: Logger;
  http?: HttpClient;
  secrets?: SecretsReader;
  /** Database and broker connections shared by every run (closed when idle and on shutdown). */
  pools?: ConnectionPools;
  /** Broker connections shared per credential (mqtt.publish, amqp.publish). */
  connections?: SharedConnections;
  agents?: (channel: RunChannel) => { run(req: HostAgentRunRequest): Promise<AgentRunResult> };
  /** The tools that act (http_request, send_email, start_flow, run_code), bound to one agent step. */
  agentTools?: (ctx: NodeContext) => readonly Tool[];
  /** Runs a child run inline for `flow.call` (set by the host; see runs/subflows.ts). */
  subflows?: (parent: ClaimedRun, ctx: ExecContext, execute: InlineExecutor) => SubflowCaller;
  onEvent?: (event: RunProgressEvent) => void;
  /** Plans step runs (one node, up to a node, retry from the failed step); see runs/step-runs.ts. */
  stepRuns?: StepRuns;
}

/**
 * What a sync webhook gets when the flow ends without a Respond node: the last items, or a generic error.
 * The caller may be anonymous: the failure's text (node ids, expressions, upstream answers) stays in the
 * run's trace, and the caller gets only the run id to quote.
 */
function finalResponse(status: RunOutcome["status"], output: Item[], runId: string) {
  if (status === "succeeded") {
    const body = output.length === 1 ? output[0]!.json : output.map((i) => i.json);
    return { status: 200, headers: {}, body };
  }
  const message = `the flow run ${status.replace("_", " ")}; its details are in the run's trace (run ${runId})`;
  return { status: 500, headers: {}, body: { error: { code: `run_${status}`, message, runId } } };
}

function stepLogger(d: ExecutorDeps, runId: string, nodeId: string): NodeContext["log"] {
  const line = (level: "info" | "warn" | "error") => (message: string, data?: unknown) => {
    d.extras.log(runId, nodeId, level, message, data);
    d.log.debug({ runId, nodeId }, message);
  };
  return { info: line("info"), warn: line("warn"), error: line("error") };
}

/** Where a run sits in a chain of sub-flow calls, and whose channel its agents are policed by. */
export interface ExecContext {
  depth: number;
  /** Sub-flows inherit the top-level run's channel for the agent tool policy (spec/POLICY.md). */
  policyChannel: RunChannel;
}

export type InlineExecutor = (
  run: ClaimedRun,
  signal: AbortSignal,
  ctx: ExecContext,
) => Promise<RunOutcome & { output?: Item[] }>;

/** The trigger payload, with its JSON text remembered so the trigger step's trace reuses it. */
function payloadOf(run: ClaimedRun): unknown {
  const payload = run.payload ?? JSON.parse(run.payloadJson);
  if (payload !== null && typeof payload === "object") rememberJson(payload, run.payloadJson);
  return payload;
}

/** Runs one claimed run through the engine with the host's capabilities in ctx. */
export function createRunExecutor(d: ExecutorDeps): RunExecutor {
  // One evaluator for the process: its cache of compiled expressions outlives single runs.
  const expressions = createExpressionEvaluator();
  const execute: InlineExecutor = async (run, signal, exec) => {
    const failed = (error: { code: string; message: string; nodeId?: string }): RunOutcome => {
      d.responses.deliver(run.id, finalResponse("failed", [], run.id));
      return { status: "failed", error };
    };
    let compiled: Awaited<ReturnType<FlowCache["get"]>>;
    try {
      compiled = await d.flows.get(run.flowId, run.flowVersion);
      if (run.stepMode && d.stepRuns) compiled = d.stepRuns.prepare(run, compiled);
    } catch (e) {
      return failed({ code: "flow_invalid", message: (e as Error).message });
    }
    const agents = d.agents?.(exec.policyChannel);
    const subflows = d.subflows?.(run, exec, execute);
    const result = await runFlow({
      flow: compiled.flow,
      graph: compiled.graph,
      registry: d.registry,
      validate: false,
      expressions,
      run: { id: run.id, flowId: run.flowId, startedAt: new Date().toISOString(), channel: run.channel },
      trigger: payloadOf(run),
      // Pinned data is an editing aid: only manual runs (the editor's Run button) use it; triggers,
      // API calls and sub-flow calls always execute every node.
      usePinData: run.channel === "manual",
      stepStore: d.stepStore,
      signal,
      onEvent: d.onEvent,
      fresh: run.fresh === true,
      // Extends the per-step base in place: spreading it would read (and so create) its lazy abort signal.
      ctxFactory: (base): NodeContext =>
        Object.assign(base, {
          // Node logs belong to the step's trace; the process log only gets them at debug level.
          log: stepLogger(d, run.id, base.nodeId),
          ...(d.http ? { http: d.http } : {}),
          ...(d.secrets ? { secrets: d.secrets } : {}),
          ...(d.pools ? { pools: d.pools } : {}),
          ...(d.connections ? { connections: d.connections } : {}),
          ...(agents
            ? {
                agents: {
                  run: (req) =>
                    agents.run({
                      ...req,
                      channel: exec.policyChannel,
                      onTrace: (t) => d.extras.agentTurn(run.id, base.nodeId, t),
                      // Bound to this step's context (`base` is the full ctx once this assign is done).
                      ...(d.agentTools ? { tools: d.agentTools(base) } : {}),
                    }),
                },
              }
            : {}),
          ...(subflows ? { flows: subflows } : {}),
          callDepth: exec.depth,
          ...(run.channel === "webhook"
            ? {
                webhook: {
                  respond: (res) =>
                    void d.responses.deliver(run.id, {
                      status: res.status,
                      headers: res.headers,
                      body: res.body,
                    }),
                },
              }
            : {}),
        } satisfies Partial<NodeContext>),
    }).catch((err: unknown) => {
      // runFlow throws a NodeError only for a step it could not checkpoint (an output nested too deeply to
      // store): the run fails naming that node, on the queue and inline alike. Anything else is a crash.
      if (err instanceof NodeError) return err;
      throw err;
    });
    d.extras.forgetRun(run.id);
    if (result instanceof NodeError)
      return failed({
        code: result.code,
        message: result.message,
        ...(result.nodeId ? { nodeId: result.nodeId } : {}),
      });
    const error = result.error
      ? { code: result.error.code, message: result.error.message, nodeId: result.error.nodeId }
      : undefined;
    if (result.status !== "waiting")
      d.responses.deliver(run.id, finalResponse(result.status, result.output, run.id));
    return {
      status: result.status,
      ...(error ? { error } : {}),
      outputJson: boundedJson(result.output).json,
      output: result.output,
      ...(result.resumeAt ? { resumeAt: new Date(result.resumeAt) } : {}),
    };
  };
  return async (run, signal) => {
    const { output: _items, ...outcome } = await execute(run, signal, {
      depth: 0,
      policyChannel: run.channel,
    });
    return outcome;
  };
}
