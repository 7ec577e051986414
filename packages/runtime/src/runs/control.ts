import type { FlowRepo } from "@switchyard/db";
import type { FlowNode, Problem, RunChannel } from "@switchyard/engine";
import { webhookTrigger } from "@switchyard/nodes";
import { HostError } from "../errors/codes";
import type { Services } from "../services";
import { ActivationError } from "../triggers/manager";
import { webhookCredentialProblem } from "../triggers/webhook/credentials";

export class RunControlError extends HostError {
  override name = "RunControlError";
  constructor(
    readonly code: "not_found" | "bad_request" | "conflict",
    message: string,
  ) {
    super(code === "bad_request" ? "invalid_request" : code, message);
  }
}

/** The verbs people use on flows and runs, shared by tRPC, the REST API and the CLI. */
export function createRunControl(o: { flows: FlowRepo; services: Services }) {
  const s = o.services;
  /** A webhook whose credential cannot authenticate anyone (wrong type, empty secret) is never bound. */
  const assertWebhookCredential = async (flowId: string, version: number, refusal: string) => {
    const compiled = await s.cache.get(flowId, version).catch(() => undefined);
    const problem = compiled && (await webhookCredentialProblem(compiled.flow.nodes, s.vault.reader));
    if (problem) throw new RunControlError("bad_request", `${refusal}: ${problem.message}`);
  };
  return {
    /** Save-time checks that need the vault (validateFlow cannot): a webhook credential of the wrong type. */
    async credentialProblems(definition: unknown): Promise<Problem[]> {
      const nodes = (definition as { nodes?: unknown } | null)?.nodes;
      if (!Array.isArray(nodes)) return [];
      const problem = await webhookCredentialProblem(nodes as FlowNode[], s.vault.reader);
      return problem ? [problem] : [];
    },

    /** Runs a flow now (manual/API): the current version unless one is named. Durable before it returns. */
    async startRun(
      flowId: string,
      opts: { payload?: unknown; channel?: RunChannel; version?: number; rerunOf?: string } = {},
    ) {
      const flow = await o.flows.get(flowId);
      if (!flow) throw new RunControlError("not_found", `flow ${flowId} not found`);
      const version = opts.version ?? flow.currentVersion;
      await s.cache.get(flowId, version).catch((e: Error) => {
        throw new RunControlError("bad_request", e.message);
      });
      const { id } = await s.queue.enqueue({
        flowId,
        flowVersion: version,
        channel: opts.channel ?? "manual",
        payloadJson: JSON.stringify(opts.payload ?? {}),
        ...(opts.rerunOf ? { rerunOf: opts.rerunOf } : {}),
      });
      s.worker.kick();
      return { runId: id, flowVersion: version };
    },

    async cancelRun(runId: string) {
      const result = await s.queue.requestCancel(runId);
      if (result === "not_found") throw new RunControlError("not_found", `run ${runId} not found`);
      if (result === "signalled") s.worker.abort(runId);
      if (result === "cancelled") await s.cancelledUnclaimed(runId);
      return { runId, result };
    },

    /** Activation validates and binds before it is recorded, so an active flow always listens. */
    async setActive(flowId: string, active: boolean) {
      const flow = await o.flows.get(flowId);
      if (!flow) throw new RunControlError("not_found", `flow ${flowId} not found`);
      if (active) await assertWebhookCredential(flowId, flow.currentVersion, "cannot activate");
      await o.flows.setActive(flowId, active);
      try {
        await s.triggers.sync(flowId);
        s.scale?.bus.publish("flow.sync", { flowId });
      } catch (e) {
        await o.flows.setActive(flowId, false);
        s.triggers.unbind(flowId);
        if (e instanceof ActivationError)
          throw new RunControlError("bad_request", `cannot activate: ${e.message}`);
        throw e;
      }
      return o.flows.get(flowId);
    },

    /**
     * Binds the flow's latest webhook config under `/hooks-test/<path>` until one request arrives (or the
     * time runs out) and returns that request's payload: the editor's "listen for test event".
     */
    async listenForTestEvent(flowId: string, timeoutMs = 120_000): Promise<unknown | null> {
      const flow = await o.flows.get(flowId);
      if (!flow) throw new RunControlError("not_found", `flow ${flowId} not found`);
      const compiled = await s.cache.get(flowId, flow.currentVersion).catch((e: Error) => {
        throw new RunControlError("bad_request", e.message);
      });
      const node = compiled.flow.nodes.find((n) => n.type === webhookTrigger.type);
      if (!node) throw new RunControlError("bad_request", "the flow has no webhook trigger to listen on");
      // The compiled flow passed validation, so its webhook config parses.
      const config = webhookTrigger.config.parse(node.config);
      try {
        s.hooks.test.bind({ flowId, flowVersion: flow.currentVersion, nodeId: node.id, config });
      } catch (e) {
        throw new RunControlError("conflict", (e as Error).message);
      }
      return new Promise((resolve) => {
        const done = (payload: unknown) => {
          clearTimeout(timer);
          s.events.off("webhook.test", onEvent);
          s.hooks.test.unbind(flowId);
          resolve(payload);
        };
        const onEvent = (e: { flowId: string; payload: unknown }) => {
          if (e.flowId === flowId) done(e.payload);
        };
        const timer = setTimeout(() => done(null), timeoutMs);
        s.events.on("webhook.test", onEvent);
      });
    },

    /** After a save: an active flow moves to the new version at once. */
    async afterSave(flowId: string) {
      const flow = await o.flows.get(flowId);
      if (flow?.active) {
        // Checked before the new version is pinned: a refused save leaves the old version serving.
        await assertWebhookCredential(
          flowId,
          flow.currentVersion,
          `version ${flow.currentVersion} is saved but not served`,
        );
        await o.flows.setActive(flowId, true);
        await s.triggers.sync(flowId);
        s.scale?.bus.publish("flow.sync", { flowId });
      }
    },
  };
}

export type RunControl = ReturnType<typeof createRunControl>;
