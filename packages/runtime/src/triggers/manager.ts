import type { FlowRepo } from "@switchyard/db";
import type { FlowNode, NodeRegistry, TriggerDefinition } from "@switchyard/engine";
import type { Logger } from "../logger";
import type { FlowCache } from "../runs/flow-cache";
import { CronConfigError } from "./cron/expression";
import type { HookRegistry, WebhookConfig } from "./webhook/registry";

export type TriggerKind = "webhook" | "email" | "cron" | "manual";

export interface TriggerHealth {
  flowId: string;
  nodeId: string;
  kind: TriggerKind;
  status: "listening" | "error";
  lastEventAt?: string;
  lastError?: string;
}

/** Listener adapters for the trigger kinds that listen (webhooks are a plain registry). */
export interface TriggerAdapters {
  email?: {
    bind(b: {
      flowId: string;
      flowVersion: number;
      nodeId: string;
      localPart: string;
      allowFrom?: string[];
      maxMessageBytes?: number;
    }): void;
    unbind(flowId: string): void;
  };
  cron?: {
    bind(b: {
      flowId: string;
      flowVersion: number;
      nodeId: string;
      expression: string;
      timezone: string;
      overlap: "skip" | "queue" | "allow";
      missed: "skip" | "run_once";
    }): Promise<void>;
    unbind(flowId: string): void;
  };
}

export class ActivationError extends Error {
  override name = "ActivationError";
}

/**
 * Keeps the running process's listeners in step with which flows are active: activation, edits and
 * deactivation rebind immediately, so a trigger never serves a stale version or dies silently.
 */
export function createTriggerManager(o: {
  flows: FlowRepo;
  cache: FlowCache;
  registry: NodeRegistry;
  hooks: HookRegistry;
  adapters: TriggerAdapters;
  log: Logger;
}) {
  const health = new Map<string, TriggerHealth>();
  const kindOf = new Map<string, TriggerKind>();

  const unbindAll = (flowId: string) => {
    o.hooks.unbind(flowId);
    o.adapters.email?.unbind(flowId);
    o.adapters.cron?.unbind(flowId);
    kindOf.delete(flowId);
    health.delete(flowId);
  };

  const triggerOf = (nodes: FlowNode[]): { node: FlowNode; def: TriggerDefinition } => {
    for (const node of nodes) {
      const def = o.registry.get(node.type);
      if (def?.kind === "trigger" && !node.disabled) return { node, def };
    }
    throw new ActivationError("the flow has no enabled trigger node");
  };

  const manager = {
    /** Listeners start after the manager exists (they report health to it), so they plug in late. */
    setAdapter<K extends keyof TriggerAdapters>(kind: K, adapter: TriggerAdapters[K]) {
      o.adapters[kind] = adapter;
    },
    /** Binds (or unbinds) the flow's trigger to match the database. Throws ActivationError on a bad flow. */
    async sync(flowId: string): Promise<void> {
      const flow = await o.flows.get(flowId);
      if (!flow?.active || flow.activeVersion == null) {
        unbindAll(flowId);
        return;
      }
      const compiled = await o.cache.get(flowId, flow.activeVersion).catch((e: Error) => {
        throw new ActivationError(e.message);
      });
      const { node, def } = triggerOf(compiled.flow.nodes);
      const parsed = def.config.safeParse(node.config);
      if (!parsed.success)
        throw new ActivationError(
          `trigger ${node.id}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
        );
      const config = parsed.data as Record<string, unknown>;
      const base = { flowId, flowVersion: flow.activeVersion, nodeId: node.id };
      unbindAll(flowId);
      let kind: TriggerKind = "manual";
      if (def.type === "trigger.webhook") {
        kind = "webhook";
        try {
          o.hooks.bind({ ...base, config: config as WebhookConfig });
        } catch (e) {
          throw new ActivationError((e as Error).message);
        }
      } else if (def.type === "trigger.email") {
        kind = "email";
        if (!o.adapters.email) throw new ActivationError("inbound e-mail is not running in this process");
        o.adapters.email.bind({
          ...base,
          ...(config as { localPart: string; allowFrom?: string[]; maxMessageBytes?: number }),
        });
      } else if (def.type === "trigger.cron") {
        kind = "cron";
        if (!o.adapters.cron) throw new ActivationError("the scheduler is not running in this process");
        const c = config as {
          expression: string;
          timezone?: string;
          overlap: "skip" | "queue" | "allow";
          missed: "skip" | "run_once";
        };
        const timezone = c.timezone ?? compiled.flow.settings.timezone;
        await o.adapters.cron
          .bind({ ...base, expression: c.expression, timezone, overlap: c.overlap, missed: c.missed })
          .catch((e: Error) => {
            // The flow's own time zone is only checked here (the trigger config may leave it out): a 400.
            throw e instanceof CronConfigError ? new ActivationError(`trigger ${node.id}: ${e.message}`) : e;
          });
      }
      kindOf.set(flowId, kind);
      health.set(flowId, { flowId, nodeId: node.id, kind, status: "listening" });
      o.log.info({ flowId, version: flow.activeVersion, kind }, "trigger bound");
    },
    async syncAll(): Promise<void> {
      for (const flow of await o.flows.list()) {
        if (!flow.active) continue;
        try {
          await manager.sync(flow.id);
        } catch (e) {
          // One broken flow must not keep the others from listening; its health says why.
          o.log.error({ err: e, flowId: flow.id }, "could not bind trigger");
          health.set(flow.id, {
            flowId: flow.id,
            nodeId: "",
            kind: "manual",
            status: "error",
            lastError: (e as Error).message,
          });
        }
      }
    },
    unbind: unbindAll,
    /** Called by listeners on every event and failure. */
    report(flowId: string, update: Partial<Pick<TriggerHealth, "status" | "lastEventAt" | "lastError">>) {
      const h = health.get(flowId);
      if (h) Object.assign(h, update);
    },
    health: (flowId?: string) => (flowId ? health.get(flowId) : [...health.values()]),
  };
  return manager;
}

export type TriggerManager = ReturnType<typeof createTriggerManager>;
