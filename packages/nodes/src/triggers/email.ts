import { emailConfig, emailPayload } from "@switchyard/contracts/triggers";
import { defineTrigger } from "../define";

/** An inbound address on the embedded SMTP server; each trigger owns one local part. */
export const emailTrigger = defineTrigger({
  type: "trigger.email",
  typeVersion: 1,
  title: "Inbound e-mail",
  description: "Starts the flow when an e-mail arrives at its address.",
  icon: "mail",
  channel: "email",
  config: emailConfig,
  example: { localPart: "invoices", allowFrom: ["@example.com"], maxMessageBytes: 5_000_000 },
  payload: emailPayload,
});
