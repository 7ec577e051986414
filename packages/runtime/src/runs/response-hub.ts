import { TransientMap } from "@switchyard/engine";
import type { WebhookResponse } from "../triggers/webhook/handler";

/**
 * Hands a sync webhook run's response from the worker to the waiting HTTP request. The request says it
 * expects a response before the run is admitted, so a run that answers faster than the request can start
 * waiting is never missed, and runs nobody waits for leave nothing behind.
 */
export function createResponseHub() {
  // Slots live one request; see TransientMap for why not a Map.
  const expected = new TransientMap<{
    response?: WebhookResponse;
    resolve?: (r: WebhookResponse | undefined) => void;
  }>();
  return {
    expect(runId: string) {
      if (!expected.has(runId)) expected.set(runId, {});
    },
    /** Returns true when someone was waiting for this run's answer (only the first answer counts). */
    deliver(runId: string, response: WebhookResponse): boolean {
      const slot = expected.get(runId);
      if (!slot || slot.response) return false;
      slot.response = response;
      if (slot.resolve) {
        expected.delete(runId);
        slot.resolve(response);
      }
      return true;
    },
    wait(runId: string, timeoutMs: number): Promise<WebhookResponse | undefined> {
      const slot = expected.get(runId) ?? {};
      if (slot.response) {
        expected.delete(runId);
        return Promise.resolve(slot.response);
      }
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          expected.delete(runId);
          resolve(undefined);
        }, timeoutMs);
        slot.resolve = (r) => {
          clearTimeout(timer);
          resolve(r);
        };
        expected.set(runId, slot);
      });
    },
    forget(runId: string) {
      expected.delete(runId);
    },
    pending: () => expected.size,
  };
}

export type ResponseHub = ReturnType<typeof createResponseHub>;
