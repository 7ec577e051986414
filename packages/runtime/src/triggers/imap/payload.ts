import { emailPayload } from "@switchyard/contracts/triggers";
import {
  type AttachmentLimits,
  type StoreAttachment,
  sharedPayload,
  storeAttachments,
} from "../email/build-payload";
import { parseMail } from "../email/parse-mail";

/**
 * A fetched message as the run's trigger item: the inbound e-mail trigger's payload, built by the same
 * code. A mailbox has no envelope: `recipient` is the mailbox's account, and a message without a From
 * header has `from: ""`.
 */
export async function imapPayloadJson(
  source: Buffer,
  account: string,
  deps: { storeAttachment: StoreAttachment; limits: AttachmentLimits },
): Promise<string> {
  const mail = await parseMail(source);
  const attachments = await storeAttachments(mail.attachments, deps.limits, deps.storeAttachment);
  const payload = { ...sharedPayload(mail, "", attachments), recipient: account };
  // Checked, but the JSON of the built object is stored (zod rebuilds records and would drop `__proto__`).
  emailPayload.parse(payload);
  return JSON.stringify(payload);
}
