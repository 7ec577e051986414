import { emailLocalPart, emailSenderPattern } from "@switchyard/contracts/triggers";
import { z } from "zod";

// The run payload and its attachment entries are declared once, in @switchyard/contracts; the listener
// still imports them from here under the names it had (#19: switch it to contracts' names).
export {
  type DroppedAttachment,
  droppedAttachment,
  type EmailPayload as EmailRunPayload,
  emailPayload as emailRunPayload,
  type StoredAttachment,
  storedAttachment,
} from "@switchyard/contracts/triggers";

/** What binds a flow's e-mail trigger to an address `<localPart>@<domain>`. */
export const emailBinding = z.object({
  flowId: z.string().min(1),
  flowVersion: z.number().int(),
  nodeId: z.string().min(1),
  localPart: emailLocalPart,
  allowFrom: z.array(emailSenderPattern).optional(),
  maxMessageBytes: z.number().int().positive().optional(),
});
export type EmailBinding = z.infer<typeof emailBinding>;
