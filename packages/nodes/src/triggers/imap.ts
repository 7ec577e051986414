import { emailPayload, imapConfig } from "@switchyard/contracts/triggers";
import { defineTrigger } from "../define";

/**
 * An existing mailbox on an IMAP server: each unread message starts a run with the same payload as the
 * inbound e-mail trigger, then is marked as read or moved. Runs are on the `email` channel.
 */
export const imapTrigger = defineTrigger({
  type: "trigger.imap",
  typeVersion: 1,
  title: "IMAP mailbox",
  description: "Starts the flow for each unread message in a mailbox on an IMAP server.",
  icon: "mail",
  channel: "email",
  config: imapConfig,
  example: { credentialId: "cred-imap", mailbox: "INBOX", after: "mark_read", pollSeconds: 60 },
  payload: emailPayload,
});
