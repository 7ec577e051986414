import { newId } from "@switchyard/db";
import { InFlight, type NodeDefinition, type NodeRegistry } from "@switchyard/engine";
import { webhookTrigger } from "@switchyard/nodes";
import type { CompletedRun, RunOutcome, RunQueue } from "../queue/types";
import type { WebhookResponse } from "../triggers/webhook/handler";
import type { HookBinding } from "../triggers/webhook/registry";
import type { RunExecutor, Worker } from "../worker/worker";
import type { CompiledFlow, FlowCache } from "./flow-cache";
import type { ResponseHub } from "./response-hub";
import type { BatchingStepStore } from "./sqlite-step-store";

/**
 * Runs a sync webhook's flow to its end inside the request when every node is pure and quick (set, if,
 * switch, merge, transform, respond…): nothing outside the run can happen, so nothing needs to be durable
 * before it starts. The run row — already finished, with every step — is then written in the next
 * group-committed admission transaction, and only after that COMMIT does the caller answer. An answered
 * request therefore always has its complete run; a crash before the commit loses only a request nobody
 * was answered for. One write per run instead of admission + claim + finish.
 */
export function isInlineEligible(compiled: CompiledFlow, registry: NodeRegistry): boolean {
  return compiled.flow.nodes.every((node) => {
    const def = registry.get(node.type);
    if (!def) return false;
    if (def.kind === "trigger") return true;
    const n = def as NodeDefinition;
    // Retries wait between attempts and a long-running node holds the request: both go through the queue.
    return n.pure === true && n.longRunning !== true && (node.retry?.maxAttempts ?? 1) <= 1;
  });
}

export interface InlineRunDeps {
  cache: FlowCache;
  registry: NodeRegistry;
  execute: RunExecutor;
  stepStore: BatchingStepStore;
  queue: Pick<RunQueue, "enqueue">;
  responses: ResponseHub;
  worker: Worker;
  onFinished(run: { id: string; flowId: string; status: RunOutcome["status"] }): void;
}

// Inline runs can't be cancelled (they end within the request), so they share one signal that never aborts.
const never = new AbortController().signal;

export function createInlineRuns(d: InlineRunDeps) {
  const eligible = new WeakMap<CompiledFlow, boolean>();
  const inFlight = new InFlight();

  /**
   * Undefined when the flow must go through the queue; else the committed run's id and its answer.
   * `payload` is handed to the engine as is, so ingress builds it JSON-shaped (own keys, plain objects,
   * no functions): it equals JSON.parse(payloadJson), as a queued run sees it (security-ingress-keys test).
   */
  const run = async (
    b: HookBinding,
    payload: unknown,
    payloadJson: string,
  ): Promise<{ runId: string; response: WebhookResponse } | undefined> => {
    // Runs this worker queued go first (FIFO); during shutdown nothing new starts here.
    if (!d.worker.acceptsInline()) return undefined;
    const compiled = await d.cache.get(b.flowId, b.flowVersion);
    let ok = eligible.get(compiled);
    if (ok === undefined) {
      ok = isInlineEligible(compiled, d.registry);
      eligible.set(compiled, ok);
    }
    if (!ok) return undefined;

    const id = newId();
    const startedAt = Date.now();
    d.responses.expect(id);
    try {
      const outcome = await d.execute(
        {
          id,
          flowId: b.flowId,
          flowVersion: b.flowVersion,
          channel: webhookTrigger.channel,
          payloadJson,
          payload,
          attempts: 1,
          createdAt: "",
          fresh: true,
        },
        never,
      );
      const completed: CompletedRun = {
        outcome,
        startedAt,
        endedAt: Date.now(),
        writeSteps: d.stepStore.takeBuffered(id),
      };
      await d.queue.enqueue({
        id,
        flowId: b.flowId,
        flowVersion: b.flowVersion,
        channel: webhookTrigger.channel,
        payloadJson,
        completed,
      });
      d.onFinished({ id, flowId: b.flowId, status: outcome.status });
      // The executor delivers an answer for every run that ended (webhook.respond or the last items).
      const response = (await d.responses.wait(id, 0)) ?? {
        status: 500,
        headers: {},
        body: {
          error: {
            code: "no_response",
            message: `the run ended ${outcome.status} without an answer`,
            runId: id,
          },
        },
      };
      return { runId: id, response };
    } finally {
      d.responses.forget(id);
      // A run that threw before it was recorded leaves buffered rows: taking them (unwritten) drops them.
      d.stepStore.takeBuffered(id);
    }
  };

  return {
    run(b: HookBinding, payload: unknown, payloadJson: string) {
      return inFlight.track(run(b, payload, payloadJson));
    },
    /** Waits for inline runs still in progress (before the database closes). */
    async drain() {
      await inFlight.settled();
    },
  };
}

export type InlineRuns = ReturnType<typeof createInlineRuns>;
