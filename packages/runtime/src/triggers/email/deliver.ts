import { createHash } from "node:crypto";
import type { ParsedMail } from "mailparser";
import { senderAllowed } from "./address-book";
import type { Logger } from "../../logger";
import {
  type AttachmentLimits,
  type StoreAttachment,
  sharedPayload,
  storeAttachments,
} from "./build-payload";
import { emailPayload as emailRunPayload } from "@switchyard/contracts/triggers";
import { fromHeaderCount, parseMail } from "./parse-mail";
import type { EmailBinding } from "./payload-schema";
import { smtpReply } from "./replies";

/** One flow a message goes to, with the envelope address that reached it. */
export interface Target {
  binding: EmailBinding;
  recipient: string;
  tag?: string;
}

export interface DeliverDeps {
  admit(binding: EmailBinding, payloadJson: string): Promise<string>;
  storeAttachment: StoreAttachment;
  limits: AttachmentLimits;
  admitted: AdmittedLog;
  log: Logger;
}

/**
 * Remembers which (flow, message bytes) pairs already have a run. A message for two flows whose
 * second admit fails is answered 451; the sender's retry then only admits the flow still missing,
 * instead of starting the first flow twice. In memory and bounded: after a restart a retry may
 * duplicate, never lose.
 */
export function createAdmittedLog(capacity = 1000) {
  const runs = new Map<string, string>();
  return {
    get: (flowId: string, digest: string) => runs.get(`${flowId}\0${digest}`),
    remember(flowId: string, digest: string, runId: string): void {
      runs.set(`${flowId}\0${digest}`, runId);
      if (runs.size > capacity) runs.delete(runs.keys().next().value as string);
    },
  };
}
export type AdmittedLog = ReturnType<typeof createAdmittedLog>;

/** Every address in the From header (groups flattened). */
function headerFromAddresses(mail: ParsedMail): string[] {
  const flat = (list: NonNullable<ParsedMail["from"]>["value"]): string[] =>
    list.flatMap((a) => (a.group ? flat(a.group) : a.address ? [a.address] : []));
  return mail.from ? flat(mail.from.value) : [];
}

async function parse(raw: Buffer): Promise<ParsedMail> {
  try {
    return await parseMail(raw);
  } catch (err) {
    throw smtpReply(554, `5.6.0 Message could not be parsed: ${(err as Error).message}`);
  }
}

/**
 * Parses the message, stores its attachments and admits one run per target flow. Resolves with
 * the run ids only once every admit has resolved (the runs are durable); any storage or admit
 * failure rejects with a 451 so the sender keeps the message and retries. A flow whose allow-list
 * misses an address of the From header is skipped; when that leaves none, the message gets a 550.
 */
export async function deliver(
  raw: Buffer,
  envelopeFrom: string,
  targets: Target[],
  deps: DeliverDeps,
): Promise<string[]> {
  const mail = await parse(raw);
  const digest = createHash("sha256").update(raw).digest("hex");
  // RCPT checked the envelope sender; the From header a flow reads must be on the allow-list as well.
  const authors = headerFromAddresses(mail);
  // mailparser reads the first From field only: a flow with an allow-list takes no message with several, since
  // the others (which a flow still sees in `headers`) were never checked.
  const fromFields = fromHeaderCount(mail);
  const restricted = (t: Target) => (t.binding.allowFrom?.length ?? 0) > 0;
  const refused = targets.filter(
    (t) => (fromFields > 1 && restricted(t)) || authors.some((a) => !senderAllowed(t.binding.allowFrom, a)),
  );
  if (refused.length > 0) {
    const author = authors.find((a) => refused.some((t) => !senderAllowed(t.binding.allowFrom, a)));
    deps.log.info(
      { flows: refused.map((t) => t.binding.flowId), author, fromFields },
      "refused an e-mail whose From header is not allowed",
    );
    if (refused.length === targets.length) {
      const to = refused[0]!.recipient;
      throw smtpReply(
        550,
        author === undefined
          ? `5.7.1 The message has ${fromFields} From header fields; <${to}> only takes mail with one, from an allowed sender`
          : `5.7.1 Sender <${author}> (From header) is not allowed to send to <${to}>`,
      );
    }
  }
  const accepted = targets.filter((t) => !refused.includes(t));
  const pending = accepted.filter((t) => deps.admitted.get(t.binding.flowId, digest) === undefined);
  if (pending.length < accepted.length) {
    const done = accepted.filter((t) => !pending.includes(t)).map((t) => t.binding.flowId);
    deps.log.info({ flows: done }, "e-mail already admitted for these flows; not admitted again");
  }
  if (pending.length > 0) {
    let attachments: Awaited<ReturnType<typeof storeAttachments>>;
    try {
      attachments = await storeAttachments(mail.attachments, deps.limits, deps.storeAttachment);
    } catch (err) {
      deps.log.error({ err }, "could not store e-mail attachments");
      throw smtpReply(451, "4.3.0 Could not store the attachments, please try again later");
    }
    const shared = sharedPayload(mail, envelopeFrom, attachments);
    for (const t of pending) {
      const payload = { ...shared, recipient: t.recipient, tag: t.tag };
      // Checked, but the checked copy is not what is stored: zod rebuilds records with `out[k] =`, which
      // drops a header named `__proto__` that JSON keeps as an ordinary key.
      emailRunPayload.parse(payload);
      try {
        const runId = await deps.admit(t.binding, JSON.stringify(payload));
        deps.admitted.remember(t.binding.flowId, digest, runId);
      } catch (err) {
        deps.log.error({ err, flowId: t.binding.flowId }, "could not admit e-mail run");
        throw smtpReply(451, "4.3.0 Could not queue the message, please try again later");
      }
    }
  }
  return accepted.map((t) => deps.admitted.get(t.binding.flowId, digest) as string);
}
