import { imapCredentialFields } from "@switchyard/contracts/credentials";
import type { ImapConfig } from "@switchyard/contracts/triggers";
import type { HttpClient, SecretsReader } from "@switchyard/engine";
import { imapTrigger, serverTarget } from "@switchyard/nodes";
import type { Logger } from "../../logger";
import type { StoreAttachment } from "../email/build-payload";
import { defineTriggerListener, type TriggerBinding } from "../listener";
import { createMailboxWatcher, type ImapAccount } from "./watcher";

const MiB = 1024 * 1024;
const fields = imapCredentialFields.omit({ allowedHosts: true });

export interface ImapListenerOptions {
  secrets: SecretsReader;
  /** The host's outbound guard (its `vetHost` checks the mailbox host like any outbound address). */
  http: HttpClient;
  storeAttachment: StoreAttachment;
  log: Logger;
  maxAttachmentBytes?: number;
  maxTotalAttachmentBytes?: number;
  /** Reconnect backoff (tests shorten it). */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
}

/** Existing mailboxes: one watcher (one IMAP connection) per bound flow. */
export function createImapListener(o: ImapListenerOptions) {
  const pending = new Map<string, TriggerBinding<ImapConfig>>();
  const watchers = new Map<string, ReturnType<typeof createMailboxWatcher>>();
  let started = false;

  const account =
    (b: { nodeId: string; config: { credentialId: string } }) => async (): Promise<ImapAccount> => {
      const t = await serverTarget(
        { nodeId: b.nodeId, secrets: o.secrets, http: o.http },
        { credentialId: b.config.credentialId, type: "imap", fields, scheme: "imap" },
      );
      return {
        host: t.fields.host,
        address: t.address.address,
        port: Number(t.fields.port),
        secure: t.fields.secure === "true",
        user: t.fields.user,
        password: t.fields.password,
      };
    };

  function watch(b: TriggerBinding<ImapConfig>) {
    watchers.set(
      b.flowId,
      createMailboxWatcher({
        binding: b,
        account: account(b),
        storeAttachment: o.storeAttachment,
        limits: {
          maxAttachmentBytes: o.maxAttachmentBytes ?? 10 * MiB,
          maxTotalAttachmentBytes: o.maxTotalAttachmentBytes ?? 20 * MiB,
        },
        log: o.log,
        ...(o.firstBackoffMs ? { firstBackoffMs: o.firstBackoffMs } : {}),
        ...(o.maxBackoffMs ? { maxBackoffMs: o.maxBackoffMs } : {}),
      }),
    );
  }

  const stopWatcher = (flowId: string) => {
    const w = watchers.get(flowId);
    watchers.delete(flowId);
    return w?.stop();
  };

  const listener = defineTriggerListener({
    trigger: imapTrigger,
    async start() {
      started = true;
      for (const b of pending.values()) watch(b);
      pending.clear();
    },
    async bind(b) {
      // The old version's watcher is gone before the new one reads: two would admit one message twice.
      await stopWatcher(b.flowId);
      if (started) watch(b);
      else pending.set(b.flowId, b);
    },
    unbind(flowId) {
      pending.delete(flowId);
      void stopWatcher(flowId);
    },
    async close() {
      started = false;
      await Promise.all([...watchers.keys()].map(stopWatcher));
    },
    /** Test hook: resolves after the flow's watcher checked its mailbox once more. */
    checked: (flowId: string) => watchers.get(flowId)?.checked() ?? Promise.resolve(),
  });
  return listener;
}
