/**
 * The driver: feeds events into the state machine and performs its effects (runs nodes with timeouts
 * and abort signals, saves checkpoints before anything else starts, arms retry and run timers).
 */
import type {
  ExpressionEvaluator,
  Item,
  NodeContext,
  NodeDefinition,
  NodeRegistry,
  RunInfo,
} from "../contract";
import { NodeError, type NodeErrorInfo } from "../errors";
import { createExpressionEvaluator } from "../expressions/evaluator";
import { compileGraph, type FlowGraph } from "../flow/graph";
import type { FlowDefinition } from "@switchyard/contracts/flow";
import { type ValidateOptions, validateFlow } from "../validate/validate-flow";
import { createRunState, step } from "./machine";
import { type NodeOutcome, runNode } from "./node-runner";
import { StepAbort } from "./step-abort";
import { StepContext } from "./step-context";
import { checkpointIndex, NodesScope, recordFrom, resultOf } from "./run-support";
import { InMemoryStepStore, type StepStore } from "./step-store";
import { type Effect, type RunEvent, type RunResult, type StepRecord, stepIdOf } from "./types";

/** What the host's `ctxFactory` receives; it returns the node's full context (adding http, secrets…). */
export type BaseNodeContext = Pick<
  NodeContext,
  "nodeId" | "run" | "log" | "signal" | "now" | "expressions"
> & {
  attempt: number;
};

export type RunProgressEvent =
  | { type: "step.started"; runId: string; nodeId: string; visit: number; attempt: number; at: string }
  | { type: "step.finished"; runId: string; step: StepRecord }
  | { type: "run.finished"; runId: string; result: RunResult };

export interface RunFlowOptions {
  flow: FlowDefinition;
  registry: NodeRegistry;
  run: RunInfo;
  /** The trigger payload (becomes the trigger's single item json). Ignored when resuming. */
  trigger?: unknown;
  stepStore?: StepStore;
  ctxFactory?: (base: BaseNodeContext) => NodeContext;
  now?: () => Date;
  random?: () => number;
  signal?: AbortSignal;
  onEvent?: (event: RunProgressEvent) => void;
  expressions?: ExpressionEvaluator;
  maxNodeVisits?: number;
  /** Validation options, or `false` when the caller validated this exact flow already. */
  validate?: ValidateOptions | false;
  /** A graph compiled earlier with `compileGraph` for this flow (skips recompiling per run). */
  graph?: FlowGraph;
  /**
   * Nodes with items in `flow.pinData` answer with those items (on their first port) instead of
   * executing. Meant for runs started from the editor; triggers and API runs leave it off.
   */
  usePinData?: boolean;
  /** The caller knows this run has no checkpoints yet (just admitted): skip loading them. */
  fresh?: boolean;
}

const silentLog = { info() {}, warn() {}, error() {} };

export async function runFlow(opts: RunFlowOptions): Promise<RunResult> {
  const runId = opts.run.id;
  const now = opts.now ?? (() => new Date());
  const random = opts.random ?? Math.random;
  const store = opts.stepStore ?? new InMemoryStepStore();
  const evaluator = opts.expressions ?? createExpressionEvaluator();
  const emitEvent = (e: RunProgressEvent) => {
    try {
      opts.onEvent?.(e);
    } catch {
      // A broken live view must not break the run.
    }
  };

  if (opts.validate !== false) {
    const problems = validateFlow(opts.flow, opts.registry, opts.validate || {});
    if (problems.length > 0) {
      const message = problems.map((p) => p.message).join("; ");
      const error: NodeErrorInfo = { code: "flow_invalid", message, retryable: false };
      const result: RunResult = { runId, status: "failed", steps: [], error, output: [] };
      emitEvent({ type: "run.finished", runId, result });
      return result;
    }
  }
  const graph = opts.graph ?? compileGraph(opts.flow, opts.registry);
  const state = createRunState(graph, { maxNodeVisits: opts.maxNodeVisits });
  const loaded = opts.fresh ? [] : await store.load(runId);
  const { pending: checkpoints, latest: persisted } = checkpointIndex(loaded);
  const nodesScope = new NodesScope();
  for (const rec of persisted.values()) nodesScope.update(rec);
  const nodesValue = () => nodesScope.value;

  const queue: RunEvent[] = [];
  let wake: (() => void) | undefined;
  const push = (ev: RunEvent) => {
    queue.push(ev);
    wake?.();
  };
  const inflight = new Map<string, StepAbort>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const startedAt = new Map<string, string>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(
      () => {
        timers.delete(t);
        fn();
      },
      Math.max(0, ms),
    );
    timers.add(t);
  };

  // Step ids answered from pinned data, so their records say so.
  const pins = opts.usePinData ? opts.flow.pinData : undefined;
  const pinnedSteps = new Set<string>();
  const triggerId = graph.triggers[0];
  const triggerRec = triggerId ? persisted.get(stepIdOf(triggerId, 1)) : undefined;
  const pinnedTrigger = triggerId && !triggerRec ? pins?.[triggerId] : undefined;
  if (pinnedTrigger && triggerId) pinnedSteps.add(stepIdOf(triggerId, 1));
  const triggerItems: Item[] = triggerRec?.outputs.main ?? pinnedTrigger ?? [{ json: asJson(opts.trigger) }];
  const triggerJson = triggerItems[0]?.json;
  if (triggerRec) checkpoints.delete(triggerRec.stepId);

  const onAbort = () => push({ type: "cancel" });
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  later(graph.flow.settings.maxRunMs, () =>
    push({ type: "runTimeout", maxRunMs: graph.flow.settings.maxRunMs }),
  );

  const launch = (eff: Extract<Effect, { type: "execute" }>) => {
    const key = stepIdOf(eff.nodeId, eff.visit);
    const node = graph.nodes.get(eff.nodeId)!;
    const def = graph.types.get(eff.nodeId) as NodeDefinition;
    const ac = new StepAbort();
    inflight.set(key, ac);
    const at = now().toISOString();
    startedAt.set(key, at);
    emitEvent({
      type: "step.started",
      runId,
      nodeId: eff.nodeId,
      visit: eff.visit,
      attempt: eff.attempt,
      at,
    });
    const base: BaseNodeContext = new StepContext(
      eff.nodeId,
      opts.run,
      silentLog,
      ac,
      now,
      evaluator,
      eff.attempt,
    );
    let settled = false;
    const finish = (outcome: NodeOutcome) => {
      if (settled) return;
      settled = true;
      inflight.delete(key);
      const { nodeId, visit } = eff;
      if (outcome.kind === "ok") push({ type: "nodeSucceeded", nodeId, visit, outputs: outcome.outputs });
      else if (outcome.kind === "wait") {
        push({
          type: "nodeWaiting",
          nodeId,
          visit,
          until: outcome.until,
          outputs: outcome.outputs,
          at: now().getTime(),
        });
      } else {
        const error = outcome.error.toInfo();
        push({
          type: "nodeFailed",
          nodeId,
          visit,
          error,
          partial: outcome.partial,
          at: now().getTime(),
          rand: random(),
        });
      }
    };
    // Pinned: answer with the stored items, no timeout, no context, no execution.
    const pinned = pins?.[eff.nodeId];
    if (pinned) {
      pinnedSteps.add(key);
      const port = def.ports[0] ?? "main";
      queueMicrotask(() => finish({ kind: "ok", outputs: { [port]: pinned } }));
      return;
    }
    if (node.timeoutMs !== undefined) {
      const ms = node.timeoutMs;
      later(ms, () => {
        if (settled) return;
        const error = new NodeError("timeout", `node "${eff.nodeId}" timed out after ${ms} ms`, {
          nodeId: eff.nodeId,
        });
        ac.abort(error);
        finish({ kind: "error", error, partial: { outputs: {}, failedItems: eff.input } });
      });
    }
    let ctx: NodeContext;
    try {
      ctx = opts.ctxFactory ? opts.ctxFactory(base) : base;
    } catch (err) {
      const error = new NodeError(
        "not_configured",
        `context for node "${eff.nodeId}" failed: ${(err as Error)?.message}`,
        {
          nodeId: eff.nodeId,
          cause: err,
          retryable: false,
        },
      );
      queueMicrotask(() => finish({ kind: "error", error }));
      return;
    }
    // `nodes` is read only when a config expression is evaluated: most steps never copy it. A function,
    // not a getter: see StepContext for what a getter in a per-step object literal cost.
    const scope = { trigger: triggerJson, nodes: nodesValue, run: opts.run };
    runNode({
      node,
      def,
      input: eff.input,
      inputsByPort: eff.inputsByPort,
      ctx,
      evaluator,
      scope,
      abort: ac,
    }).then(finish, (err) =>
      finish({
        kind: "error",
        error: new NodeError("internal", String(err), { nodeId: eff.nodeId, cause: err }),
      }),
    );
  };

  let final: Extract<Effect, { type: "finish" }> | undefined;
  const perform = async (effects: Effect[]) => {
    // Checkpoints first: nothing new starts before the finished steps are durable.
    for (const eff of effects) {
      if (eff.type !== "record") continue;
      const rec = recordFrom(eff.step, runId, startedAt, now());
      if (rec.status === "succeeded" && pinnedSteps.has(rec.stepId)) rec.reason = "pinned";
      const type = graph.types.get(rec.nodeId);
      if (type?.kind === "trigger" || (type as NodeDefinition | undefined)?.pure) rec.pure = true;
      const prev = persisted.get(rec.stepId);
      if (prev && prev.status === rec.status && prev.attempt === rec.attempt) continue;
      try {
        await store.save(rec);
      } catch (err) {
        // JSON gives up on values nested ≈ 5 000 levels deep: name the node that made one instead of
        // failing the run with a bare "Maximum call stack size exceeded".
        if (!(err instanceof RangeError)) throw err;
        throw new NodeError(
          "limit_exceeded",
          `node "${rec.nodeId}" produced a value too deeply nested to store: ${err.message}`,
          {
            nodeId: rec.nodeId,
            cause: err,
          },
        );
      }
      persisted.set(rec.stepId, rec);
      nodesScope.update(rec);
      emitEvent({ type: "step.finished", runId, step: rec });
    }
    for (const eff of effects) {
      if (eff.type === "abort") {
        const key = stepIdOf(eff.nodeId, eff.visit);
        const reason = new NodeError(eff.code, `node "${eff.nodeId}" stopped: ${eff.code}`, {
          nodeId: eff.nodeId,
        });
        inflight.get(key)?.abort(reason);
        inflight.delete(key);
      } else if (eff.type === "scheduleRetry") {
        later(Date.parse(eff.at) - now().getTime(), () =>
          push({ type: "timerFired", nodeId: eff.nodeId, visit: eff.visit }),
        );
      } else if (eff.type === "execute") {
        const rec = checkpoints.get(stepIdOf(eff.nodeId, eff.visit));
        if (rec) {
          checkpoints.delete(rec.stepId);
          push({ type: "replay", record: rec, at: now().getTime() });
        } else launch(eff);
      } else if (eff.type === "finish") final = eff;
    }
  };

  try {
    await perform(step(graph, state, { type: "start", triggerItems }).effects);
    if (opts.signal?.aborted) push({ type: "cancel" });
    while (!final) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const ev = queue.shift();
      if (ev) await perform(step(graph, state, ev).effects);
    }
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
    for (const t of timers) clearTimeout(t);
    for (const ac of inflight.values()) ac.abort(new NodeError("cancelled", "run ended"));
  }
  const result = resultOf(runId, final, state, persisted);
  emitEvent({ type: "run.finished", runId, result });
  return result;
}

function asJson(payload: unknown): Record<string, unknown> {
  if (payload !== null && typeof payload === "object" && !Array.isArray(payload))
    return payload as Record<string, unknown>;
  return payload === undefined ? {} : { value: payload };
}
