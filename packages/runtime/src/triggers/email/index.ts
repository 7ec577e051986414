export { createSmtpIngress, type SmtpIngress, type SmtpIngressOptions } from "./smtp-ingress";
export type { Health as SmtpIngressHealth } from "./listener-supervisor";
export {
  type DroppedAttachment,
  type EmailBinding,
  type EmailRunPayload,
  type StoredAttachment,
  droppedAttachment,
  emailBinding,
  emailRunPayload,
  storedAttachment,
} from "./payload-schema";
