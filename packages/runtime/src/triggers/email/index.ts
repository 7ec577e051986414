export { createSmtpIngress, type SmtpIngress, type SmtpIngressOptions } from "./smtp-ingress";
export type { Health as SmtpIngressHealth } from "./listener-supervisor";
export { type EmailBinding, emailBinding } from "./payload-schema";
