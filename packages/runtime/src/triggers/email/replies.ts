import type { Refusal } from "./address-book";

/** An error smtp-server answers with its `responseCode` and message; the text carries the RFC 3463 code. */
export type SmtpReply = Error & { responseCode: number };

export function smtpReply(code: number, message: string): SmtpReply {
  return Object.assign(new Error(message), { responseCode: code });
}

export function isSmtpReply(err: unknown): err is SmtpReply {
  return err instanceof Error && typeof (err as Partial<SmtpReply>).responseCode === "number";
}

/** RCPT refusals: permanent (5xx) because retrying the same envelope can never succeed. */
export function refusalReply(refusal: Refusal, recipient: string, domain: string): SmtpReply {
  switch (refusal.kind) {
    case "other_domain":
      return smtpReply(550, `5.7.1 Relaying denied: this server only accepts mail for @${domain}`);
    case "unknown_mailbox":
      return smtpReply(550, `5.1.1 <${recipient}>: no such mailbox here`);
    case "sender_not_allowed":
      return smtpReply(550, `5.7.1 Sender <${refusal.sender}> is not allowed to send to <${recipient}>`);
    case "too_big":
      return smtpReply(552, `5.3.4 Message too big for <${recipient}>: the limit is ${refusal.limit} bytes`);
  }
}
