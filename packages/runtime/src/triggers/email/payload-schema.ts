import { emailLocalPart, emailSenderPattern } from "@switchyard/contracts/triggers";
import { z } from "zod";

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
