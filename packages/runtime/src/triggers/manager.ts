import type { FlowRepo } from "@switchyard/db";
import type { FlowNode, RunChannel, TriggerDefinition } from "@switchyard/engine";
import type { Logger } from "../logger";
import type { FlowCache } from "../runs/flow-cache";
import {
  type FireOptions,
  type TriggerBinding,
  TriggerBindError,
  type TriggerHealthUpdate,
  type TriggerListener,
  type TriggerStatus,
} from "./listener";
import type { TypeRegistry } from "./registry";

export interface TriggerHealth {
  flowId: string;
  nodeId: string;
  /** The trigger's type id, e.g. `trigger.cron` ("" when binding failed before a trigger node was found). */
  type: string;
  status: TriggerStatus;
  lastEventAt?: string;
  lastError?: string;
}

export class ActivationError extends Error {
  override name = "ActivationError";
  constructor(
    message: string,
    /** The trigger node refused, when the flow got that far. */
    readonly trigger?: { nodeId: string; type: string },
  ) {
    super(message);
  }
}

/** A run a trigger starts: the manager adds the channel its definition declares. */
export interface TriggerRunRequest {
  flowId: string;
  flowVersion: number;
  channel: RunChannel;
  payloadJson: string;
  /** Set when the event carries its own id: a repeat within the window admits nothing new. */
  idempotency?: { key: string; ttlMs: number };
}

/**
 * Keeps the running process's listeners in step with which flows are active: activation, edits and
 * deactivation rebind immediately, so a trigger never serves a stale version or dies silently. It
 * knows no trigger type: it parses the trigger node's config with its definition's schema and hands
 * the binding to the listener registered for that type.
 */
export function createTriggerManager(o: {
  flows: FlowRepo;
  cache: FlowCache;
  types: TypeRegistry;
  /** Admits a run durably (queue + worker); resolves with its id. */
  startRun(req: TriggerRunRequest): Promise<string>;
  log: Logger;
}) {
  const health = new Map<string, TriggerHealth>();
  /** The live binding of each flow and the listener holding it. */
  const bound = new Map<string, { listener: TriggerListener; binding: TriggerBinding }>();

  const report = (flowId: string, update: TriggerHealthUpdate) => {
    const h = health.get(flowId);
    if (h) Object.assign(h, update);
  };

  function healthOf(flowId: string): TriggerHealth | undefined;
  function healthOf(): TriggerHealth[];
  function healthOf(flowId?: string): TriggerHealth | TriggerHealth[] | undefined {
    return flowId ? health.get(flowId) : [...health.values()];
  }

  const unbind = (flowId: string) => {
    bound.get(flowId)?.listener.unbind(flowId);
    bound.delete(flowId);
    health.delete(flowId);
  };

  const triggerOf = (nodes: FlowNode[]): { node: FlowNode; def: TriggerDefinition } => {
    for (const node of nodes) {
      const def = o.types.nodes.get(node.type);
      if (def?.kind === "trigger" && !node.disabled) return { node, def };
    }
    throw new ActivationError("the flow has no enabled trigger node");
  };

  const bindingFor = (
    base: Omit<TriggerBinding, "fire" | "fireJson" | "report">,
    channel: RunChannel,
  ): TriggerBinding => {
    const fireJson = async (payloadJson: string, options?: FireOptions) => {
      if (bound.get(base.flowId)?.binding !== binding)
        throw new Error(
          `flow ${base.flowId} version ${base.flowVersion} is no longer bound; event not admitted`,
        );
      const runId = await o.startRun({
        flowId: base.flowId,
        flowVersion: base.flowVersion,
        channel,
        payloadJson,
        // Keyed per flow, like webhook idempotency keys: two flows may see one message id.
        ...(options?.dedupe
          ? { idempotency: { key: `${base.flowId}:${options.dedupe.key}`, ttlMs: options.dedupe.ttlMs } }
          : {}),
      });
      if (bound.get(base.flowId)?.binding === binding)
        report(base.flowId, { lastEventAt: new Date().toISOString() });
      return runId;
    };
    const binding: TriggerBinding = {
      ...base,
      fireJson,
      fire: (payload, options) => fireJson(JSON.stringify(payload), options),
      // A replaced binding's late reports would describe a trigger that no longer runs.
      report: (update) => {
        if (bound.get(base.flowId)?.binding === binding) report(base.flowId, update);
      },
    };
    return binding;
  };

  const manager = {
    /** Binds (or unbinds) the flow's trigger to match the database. Throws ActivationError on a bad flow. */
    async sync(flowId: string): Promise<void> {
      const flow = await o.flows.get(flowId);
      if (!flow?.active || flow.activeVersion == null) {
        unbind(flowId);
        return;
      }
      const compiled = await o.cache.get(flowId, flow.activeVersion).catch((e: Error) => {
        throw new ActivationError(e.message);
      });
      const { node, def } = triggerOf(compiled.flow.nodes);
      const refused = (why: string) =>
        new ActivationError(`trigger ${node.id}: ${why}`, { nodeId: node.id, type: def.type });
      const listener = o.types.listenerOf(def.type);
      // The registry refuses a trigger type without a listener; this guards a registry built otherwise.
      if (!listener) throw refused(`no listener for "${def.type}" in this process`);
      const parsed = def.config.safeParse(node.config);
      if (!parsed.success)
        throw refused(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
      const binding = bindingFor(
        {
          flowId,
          flowVersion: flow.activeVersion,
          nodeId: node.id,
          config: parsed.data,
          settings: compiled.flow.settings,
        },
        def.channel,
      );
      unbind(flowId);
      // Registered first: a listener may report or fire from inside bind (a catch-up run after downtime).
      bound.set(flowId, { listener, binding });
      health.set(flowId, { flowId, nodeId: node.id, type: def.type, status: "listening" });
      try {
        await listener.bind(binding);
      } catch (e) {
        bound.delete(flowId);
        health.delete(flowId);
        listener.unbind(flowId);
        throw e instanceof TriggerBindError ? refused(e.message) : e;
      }
      o.log.info({ flowId, version: flow.activeVersion, type: def.type }, "trigger bound");
    },
    async syncAll(): Promise<void> {
      for (const flow of await o.flows.list()) {
        if (!flow.active) continue;
        try {
          await manager.sync(flow.id);
        } catch (e) {
          // One broken flow must not keep the others from listening; its health says why.
          o.log.error({ err: e, flowId: flow.id }, "could not bind trigger");
          const trigger = e instanceof ActivationError ? e.trigger : undefined;
          health.set(flow.id, {
            flowId: flow.id,
            nodeId: trigger?.nodeId ?? "",
            type: trigger?.type ?? "",
            status: "error",
            lastError: e instanceof Error ? e.message : String(e),
          });
        }
      }
    },
    unbind,
    /** Health of a flow's trigger, for event sources that admit runs themselves (webhooks). */
    report,
    health: healthOf,
    /** Tells the listener of the flow's trigger that one of its runs finished. */
    runFinished(flowId: string) {
      bound.get(flowId)?.listener.runFinished?.(flowId);
    },
    /** Starts every listener that opens something (a socket); call before syncAll. */
    async start() {
      for (const l of o.types.listeners) await l.start?.();
    },
    async close() {
      for (const l of o.types.listeners) await l.close?.();
    },
  };
  return manager;
}

export type TriggerManager = ReturnType<typeof createTriggerManager>;
