import { newId } from "@switchyard/db";
import type { SecretsReader } from "@switchyard/engine";
import { webhookSignatureHeader, webhookTrigger } from "@switchyard/nodes";
import type { RunQueue } from "../../queue/types";
import type { ResponseHub } from "../../runs/response-hub";
import type { Worker } from "../../worker/worker";
import type { TriggerHealthUpdate } from "../listener";
import type { ResolvedWebhookAuth } from "./auth";
import { webhookSecrets } from "./credentials";
import type { WebhookDeps } from "./handler";
import type { HookBinding } from "./registry";

/** Connects the webhook handler to the queue, the worker, the vault and trigger health. */
export function createWebhookAdmission(o: {
  queue: Pick<RunQueue, "enqueue">;
  worker: Worker;
  responses: ResponseHub;
  secrets: SecretsReader;
  /** Trigger health of the flow (the manager's). */
  report(flowId: string, update: TriggerHealthUpdate): void;
}): Pick<WebhookDeps, "resolveAuth" | "admit" | "waitForResponse"> {
  return {
    /** Fails closed: a missing credential, one of the wrong type or an empty secret throws (the caller gets a bare 500). */
    async resolveAuth(b: HookBinding): Promise<ResolvedWebhookAuth> {
      const auth = b.config.auth;
      if (auth.type === "none") return auth;
      const fields = await webhookSecrets(auth, o.secrets).catch((e: Error) => {
        o.report(b.flowId, { lastError: `webhook auth: ${e.message}` });
        throw e;
      });
      switch (auth.type) {
        case "header":
          return {
            type: "header",
            name: auth.name,
            secret: fields.secret ?? fields.value ?? fields.token ?? "",
          };
        case "basic":
          return { type: "basic", user: fields.user ?? "", password: fields.password ?? "" };
        case "hmac":
          return {
            type: "hmac",
            preset: auth.preset,
            header: webhookSignatureHeader(auth),
            secret: fields.secret ?? "",
            ...(auth.toleranceSec ? { toleranceSec: auth.toleranceSec } : {}),
            ...(auth.timestampHeader ? { timestampHeader: auth.timestampHeader } : {}),
          };
      }
    },
    async admit(b, payloadJson, key) {
      const idem = b.config.idempotency;
      const sync = b.config.responseMode === "sync";
      const id = newId();
      // Registered before admission: a run that answers before the request starts waiting is not missed.
      if (sync) o.responses.expect(id);
      // With a free slot the run is admitted already leased to this worker and starts without a claim.
      const inline = o.worker.tryReserve();
      let admission: Awaited<ReturnType<RunQueue["enqueue"]>>;
      try {
        admission = await o.queue.enqueue({
          id,
          flowId: b.flowId,
          flowVersion: b.flowVersion,
          channel: webhookTrigger.channel,
          payloadJson,
          ...(idem && key ? { idempotency: { key: `${b.flowId}:${key}`, ttlMs: idem.ttlSec * 1000 } } : {}),
          ...(inline ? { claimFor: { workerId: o.worker.workerId, leaseMs: o.worker.leaseMs } } : {}),
        });
      } catch (e) {
        if (inline) o.worker.releaseReserved();
        o.responses.forget(id);
        throw e;
      }
      if (admission.claimed) o.worker.runReserved(admission.claimed);
      else {
        if (inline) o.worker.releaseReserved();
        if (admission.duplicate) o.responses.forget(id);
        else {
          o.worker.noteQueued();
          o.worker.kick();
        }
      }
      o.report(b.flowId, { lastEventAt: new Date().toISOString() });
      return { runId: admission.id, duplicate: admission.duplicate };
    },
    waitForResponse: (runId, timeoutMs) => o.responses.wait(runId, timeoutMs),
  };
}
