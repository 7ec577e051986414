import type { FlowRepo, RunRepo } from "@switchyard/db";
import type { FlowNode, Problem, RunChannel } from "@switchyard/engine";
import { webhookTrigger } from "@switchyard/nodes";
import { HostError } from "../errors/codes";
import type { Services } from "../services";
import { ActivationError } from "../triggers/manager";
import { webhookCredentialProblem } from "../triggers/webhook/credentials";
import { errorSettingsProblems } from "./error-settings";

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
export function createRunControl(o: { flows: FlowRepo; runs: RunRepo; services: Services }) {
  const s = o.services;
  /** A webhook whose credential cannot authenticate anyone (wrong type, empty secret) is never bound. */
  const assertWebhookCredential = async (flowId: string, version: number, refusal: string) => {
    const compiled = await s.cache.get(flowId, version).catch(() => undefined);
    const problem = compiled && (await webhookCredentialProblem(compiled.flow.nodes, s.vault.reader));
    if (problem) throw new RunControlError("bad_request", `${refusal}: ${problem.message}`);
  };
  /** Step runs and retries reuse checkpoints through SQLite statements: scale-out says so instead. */
  const stepRunsOrRefuse = () => {
    if (!s.stepRuns)
      throw new RunControlError(
        "bad_request",
        "running one step, running up to a step and retrying from the failed step need the single-process (SQLite) mode; on scale-out, re-run the whole run instead",
      );
    return s.stepRuns;
  };
  return {
    /**
     * Save-time checks that need the vault or other flows (validateFlow cannot): a webhook credential of
     * the wrong type; an error flow or failure e-mail credential that cannot work.
     */
    async credentialProblems(definition: unknown, flowId?: string): Promise<Problem[]> {
      const settings = await errorSettingsProblems(definition, flowId, {
        flows: o.flows,
        cache: s.cache,
        credentialType: async (id) => (await s.vault.list()).find((c) => c.id === id)?.type,
      });
      const nodes = (definition as { nodes?: unknown } | null)?.nodes;
      if (!Array.isArray(nodes)) return settings;
      const problem = await webhookCredentialProblem(nodes as FlowNode[], s.vault.reader);
      return problem ? [problem, ...settings] : settings;
    },

    /** Runs a flow now (manual/API): the current version unless one is named. Durable before it returns. */
    async startRun(
      flowId: string,
      opts: { payload?: unknown; channel?: RunChannel; version?: number; rerunOf?: string } = {},
    ) {
      const flow = await o.flows.get(flowId);
      if (!flow) throw new RunControlError("not_found", `flow ${flowId} not found`);
      const version = opts.version ?? flow.currentVersion;
      // A version the flow never had is not found (404, as for GET /flows/{id}?version=); one that cannot run is bad.
      if (opts.version !== undefined && (opts.version < 1 || opts.version > flow.currentVersion))
        throw new RunControlError("not_found", `flow ${flowId} version ${opts.version} not found`);
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

    /**
     * Runs part of the flow's current version from the editor: only `nodeId`, its input from pinned data
     * or the latest run that has it (`node`), or `nodeId` and what it depends on (`until`). Input replayed
     * from an earlier run keeps that run's channel: data a webhook took in stays under the webhook
     * ceiling; pinned data and "run up to here" run as `manual`.
     */
    async startStepRun(flowId: string, mode: "node" | "until", nodeId: string, payload: unknown = {}) {
      const stepRuns = stepRunsOrRefuse();
      const flow = await o.flows.get(flowId);
      if (!flow) throw new RunControlError("not_found", `flow ${flowId} not found`);
      const compiled = await s.cache.get(flowId, flow.currentVersion).catch((e: Error) => {
        throw new RunControlError("bad_request", e.message);
      });
      if (!compiled.flow.nodes.some((n) => n.id === nodeId))
        throw new RunControlError("bad_request", `node "${nodeId}" is not in the saved flow (save it first)`);
      let source: string | undefined;
      let channel: RunChannel = "manual";
      if (mode === "node") {
        const input = stepRuns.inputRun(flowId, compiled, nodeId);
        if (input.missing.length)
          throw new RunControlError(
            "bad_request",
            `node "${nodeId}" has no input yet: no earlier run has an output of ${input.missing.map((m) => `"${m}"`).join(", ")}; pin data there or run up to "${nodeId}" first`,
          );
        source = input.runId;
        channel = input.channel ?? "manual";
      }
      const { id } = await s.queue.enqueue({
        flowId,
        flowVersion: flow.currentVersion,
        channel,
        payloadJson: JSON.stringify(payload ?? {}),
        stepMode: mode,
        stepNode: nodeId,
        ...(source ? { rerunOf: source } : {}),
      });
      s.worker.kick();
      return { runId: id, flowVersion: flow.currentVersion, inputFrom: source ?? null };
    },

    /**
     * A failed run again from its failed step, as a new run linked to it: same version, payload and
     * channel; the steps that succeeded are reused, not executed again.
     */
    async retryRun(runId: string) {
      stepRunsOrRefuse();
      const run = await o.runs.trace(runId);
      if (!run) throw new RunControlError("not_found", `run ${runId} not found`);
      if ((run.status !== "failed" && run.status !== "timed_out") || !run.errorNodeId)
        throw new RunControlError(
          "bad_request",
          `run ${runId} did not fail at a step (it is ${run.status}); re-run it instead`,
        );
      const { id } = await s.queue.enqueue({
        flowId: run.flowId,
        flowVersion: run.flowVersion,
        channel: run.channel as RunChannel,
        payloadJson: run.triggerPayload,
        rerunOf: run.id,
        stepMode: "retry",
        stepNode: run.errorNodeId,
      });
      s.worker.kick();
      return { runId: id, flowVersion: run.flowVersion, retryOf: run.id };
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
        const serving = flow.activeVersion;
        await o.flows.setActive(flowId, true);
        try {
          await s.triggers.sync(flowId);
        } catch (e) {
          // The new version's trigger cannot listen (a schedule or address its listener refuses): the version the
          // flow served before serves on, rather than an active flow whose trigger listens to nothing.
          if (serving !== null) await o.flows.setActive(flowId, true, serving);
          else await o.flows.setActive(flowId, false);
          await s.triggers.sync(flowId).catch(() => undefined);
          s.scale?.bus.publish("flow.sync", { flowId });
          if (e instanceof ActivationError)
            throw new RunControlError(
              "bad_request",
              `version ${flow.currentVersion} is saved but not served: ${e.message}`,
            );
          throw e;
        }
        s.scale?.bus.publish("flow.sync", { flowId });
      }
    },
  };
}

export type RunControl = ReturnType<typeof createRunControl>;
