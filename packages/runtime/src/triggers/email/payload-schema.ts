import { z } from "zod";

/** An attachment kept in the attachment store; the payload carries this reference, never the bytes. */
export const storedAttachment = z.object({
  id: z.string().min(1),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
});
export type StoredAttachment = z.infer<typeof storedAttachment>;

/** An attachment over a cap: not stored, but listed so the flow (and its author) can see it was dropped. */
export const droppedAttachment = z.object({
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  reason: z.enum(["attachment_too_large", "total_too_large"]),
});
export type DroppedAttachment = z.infer<typeof droppedAttachment>;

/** The run payload of an e-mail trigger; `payloadJson` handed to `admit` is this, serialised. */
export const emailRunPayload = z.object({
  from: z.string().describe("Sender address (From header, else the envelope sender)"),
  fromName: z.string().optional().describe("Display name of the sender, when given"),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  date: z.string().optional().describe("ISO date from the Date header; absent when missing or unparseable"),
  messageId: z.string().optional(),
  inReplyTo: z.string().optional(),
  text: z.string().optional(),
  html: z.string().optional(),
  headers: z
    .record(z.string(), z.string())
    .describe("Lower-cased names to raw unfolded values; repeated headers joined with a newline"),
  attachments: z.array(storedAttachment),
  droppedAttachments: z.array(droppedAttachment),
  recipient: z.string().describe("The envelope address of this flow that the message was delivered to"),
  tag: z.string().optional().describe("The +tag of the recipient address (orders+urgent@ → urgent)"),
});
export type EmailRunPayload = z.infer<typeof emailRunPayload>;

/** What binds a flow's e-mail trigger to an address `<localPart>@<domain>`. */
export const emailBinding = z.object({
  flowId: z.string().min(1),
  flowVersion: z.number().int(),
  nodeId: z.string().min(1),
  localPart: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9][a-z0-9._+-]*$/i, "use letters, digits and . _ + -"),
  allowFrom: z
    .array(z.string().regex(/^([^@\s]+@[^@\s]+|@[^@\s]+)$/, "use an address or @domain"))
    .optional(),
  maxMessageBytes: z.number().int().positive().optional(),
});
export type EmailBinding = z.infer<typeof emailBinding>;
