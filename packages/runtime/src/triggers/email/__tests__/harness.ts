import nodemailer, { type SendMailOptions } from "nodemailer";
import pino from "pino";
import {
  type EmailPayload as EmailRunPayload,
  emailPayload as emailRunPayload,
} from "@switchyard/contracts/triggers";
import type { EmailBinding } from "../payload-schema";
import { type SmtpIngressOptions, createSmtpIngress } from "../smtp-ingress";

export const DOMAIN = "mail.test";

export function binding(localPart: string, extra: Partial<EmailBinding> = {}): EmailBinding {
  return { flowId: `flow-${localPart}`, flowVersion: 1, nodeId: "trigger", localPart, ...extra };
}

/** A real ingress on 127.0.0.1:0 with in-memory fakes for the run queue and attachment store. */
export async function startIngress(overrides: Partial<SmtpIngressOptions> = {}) {
  const admitted: { binding: EmailBinding; payload: EmailRunPayload }[] = [];
  const stored = new Map<string, { content: Buffer; filename: string; contentType: string }>();
  const logs: { level: number; msg: string; err?: { message: string } }[] = [];
  const log = pino({ level: "debug" }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const ingress = createSmtpIngress({
    host: "127.0.0.1",
    port: 0,
    domain: DOMAIN,
    log,
    admit: async (b, json) => {
      // the payload must be JSON of the declared shape: parse it back strictly
      admitted.push({ binding: b, payload: emailRunPayload.strict().parse(JSON.parse(json)) });
      return `run-${admitted.length}`;
    },
    storeAttachment: async (content, meta) => {
      const id = `att-${stored.size + 1}`;
      stored.set(id, { content, ...meta });
      return id;
    },
    ...overrides,
  });
  const { port } = await ingress.start();
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
  return {
    ingress,
    port,
    admitted,
    stored,
    logs,
    send: (mail: SendMailOptions) => transport.sendMail(mail),
    async close() {
      transport.close();
      await ingress.stop();
    },
  };
}

/** Resolves with the error nodemailer rejected with, failing when the send succeeded. */
export async function sendError(
  p: Promise<unknown>,
): Promise<Error & { responseCode?: number; response?: string }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { responseCode?: number; response?: string };
  }
  throw new Error("expected the send to fail");
}

export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
