import { z } from "zod";
import { defineTrigger } from "../define";

const attachment = z.object({
  filename: z.string().describe("Attachment file name"),
  contentType: z.string().describe("MIME type"),
  size: z.number().int().describe("Size in bytes"),
  binaryKey: z.string().optional().describe("Key of the item's binary entry holding the content"),
});

export const emailPayload = z.object({
  from: z.string().describe("Sender address"),
  to: z.array(z.string()).describe("Recipient addresses"),
  cc: z.array(z.string()).default([]).describe("Copy addresses"),
  subject: z.string().describe("Subject line"),
  text: z.string().optional().describe("Plain-text body"),
  html: z.string().optional().describe("HTML body"),
  messageId: z.string().optional().describe("Message-ID header"),
  date: z.string().optional().describe("ISO date from the Date header"),
  attachments: z.array(attachment).default([]).describe("Attachment metadata"),
});

/** An inbound address on the embedded SMTP server; each trigger owns one local part. */
export const emailTrigger = defineTrigger({
  type: "trigger.email",
  typeVersion: 1,
  title: "Inbound e-mail",
  description: "Starts the flow when an e-mail arrives at its address.",
  icon: "mail",
  channel: "email",
  config: z.object({
    localPart: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[a-z0-9][a-z0-9._+-]*$/i, "use letters, digits and . _ + -")
      .describe("Address part before the @"),
    allowFrom: z
      .array(
        z
          .string()
          .regex(/^([^@\s]+@[^@\s]+|@[^@\s]+)$/, "use an address or @domain")
          .describe("An address (ada@example.com) or a whole domain (@example.com)"),
      )
      .optional()
      .describe("Only senders matching one of these start the flow"),
    maxMessageBytes: z
      .number()
      .int()
      .min(1024)
      .max(25 * 1024 * 1024)
      .optional()
      .describe("Largest accepted message, in bytes"),
  }),
  example: { localPart: "invoices", allowFrom: ["@example.com"], maxMessageBytes: 5_000_000 },
  payload: emailPayload,
});
