/** The e-mail trigger's config and the payload its runs receive. */
import { z } from "zod";

/** The local part of a trigger address (`<localPart>@<SWITCHYARD_SMTP_DOMAIN>`). */
export const emailLocalPart = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._+-]*$/i, "use letters, digits and . _ + -")
  .describe("Address part before the @");

/** An allowed sender: one address, or a whole domain written `@example.com`. */
export const emailSenderPattern = z
  .string()
  .regex(/^([^@\s]+@[^@\s]+|@[^@\s]+)$/, "use an address or @domain")
  .describe("An address (ada@example.com) or a whole domain (@example.com)");

/** An inbound address on the embedded SMTP server; each trigger owns one local part. */
export const emailConfig = z.object({
  localPart: emailLocalPart,
  allowFrom: z
    .array(emailSenderPattern)
    .optional()
    .describe("Only senders matching one of these start the flow"),
  maxMessageBytes: z
    .number()
    .int()
    .min(1024)
    .max(25 * 1024 * 1024)
    .optional()
    .describe("Largest accepted message, in bytes"),
});
export type EmailConfig = z.infer<typeof emailConfig>;

/** An attachment kept in the attachment store; the payload carries this reference, never the bytes. */
export const storedAttachment = z.strictObject({
  id: z.string().min(1).describe("Attachment store id"),
  filename: z.string().describe("File name (attachment-<n> when the message names none)"),
  contentType: z.string().describe("MIME type"),
  size: z.number().int().nonnegative().describe("Size in bytes"),
});
export type StoredAttachment = z.infer<typeof storedAttachment>;

/** An attachment over a cap: not stored, but listed so the flow (and its author) can see it was dropped. */
export const droppedAttachment = z.strictObject({
  filename: z.string().describe("File name"),
  contentType: z.string().describe("MIME type"),
  size: z.number().int().nonnegative().describe("Size in bytes"),
  reason: z
    .enum(["attachment_too_large", "total_too_large"])
    .describe("Which cap it passed: the one attachment's or the message's total"),
});
export type DroppedAttachment = z.infer<typeof droppedAttachment>;

/**
 * The trigger item of an e-mail run, built by the runtime's SMTP listener. An optional key is absent
 * (never "") when the message has no such value.
 */
export const emailPayload = z.strictObject({
  from: z.string().describe("Sender address (From header, else the envelope sender)"),
  fromName: z.string().optional().describe("Display name of the sender, when given"),
  to: z.array(z.string()).describe("Addresses of the To header"),
  cc: z.array(z.string()).describe("Addresses of the Cc header"),
  subject: z.string().describe('Subject line ("" when there is none)'),
  date: z.string().optional().describe("ISO date from the Date header; absent when missing or unparseable"),
  messageId: z.string().optional().describe("Message-ID header"),
  inReplyTo: z.string().optional().describe("In-Reply-To header"),
  text: z.string().optional().describe("Plain-text body"),
  html: z.string().optional().describe("HTML body"),
  headers: z
    .record(z.string(), z.string())
    .describe("Lower-cased names to raw unfolded values; repeated headers joined with a newline"),
  attachments: z.array(storedAttachment).describe("Attachments kept in the attachment store"),
  droppedAttachments: z.array(droppedAttachment).describe("Attachments refused by a size cap"),
  recipient: z.string().describe("The envelope address of this flow that the message was delivered to"),
  tag: z.string().optional().describe("The +tag of the recipient address (orders+urgent@ → urgent)"),
});
export type EmailPayload = z.infer<typeof emailPayload>;
