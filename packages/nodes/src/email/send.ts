import { smtpCredentialFields } from "@switchyard/contracts/credentials";
import type { NodeContext } from "@switchyard/engine";
import nodemailer from "nodemailer";
import { z } from "zod";
import { defineNode, formatIssues } from "../define";
import { NodeError, notConfigured } from "../errors";
import { assertCredentialHost } from "../http/allowed-hosts";
import type { GuardedHttpClient } from "../http/client";
import { isIpLiteral } from "../http/ssrf";
import type { ResolvedAddress } from "../http/vet";
import { getPath } from "../util/path";

const addressList = z
  .union([z.string().min(3), z.array(z.string().min(3)).min(1)])
  .refine((v) => (Array.isArray(v) ? v : [v]).every((a) => a.includes("@")), "every address needs an @");

/**
 * The stored SMTP credential's fields (credential data is all strings). Its allowed hosts are checked by
 * assertCredentialHost, which refuses with policy_denied and says how to fix an older credential.
 */
const smtpCredential = smtpCredentialFields.omit({ allowedHosts: true });

const attachmentShape = z.array(
  z.object({
    filename: z.string().min(1),
    content: z.string().describe("base64"),
    contentType: z.string().optional(),
  }),
);

async function smtpSettings(credentialId: string, ctx: NodeContext) {
  if (!ctx.secrets) throw notConfigured("Credentials", ctx.nodeId);
  const { data } = await ctx.secrets.get(credentialId);
  const parsed = smtpCredential.safeParse(data);
  if (!parsed.success) {
    throw new NodeError("config_invalid", formatIssues(`credential "${credentialId}"`, parsed.error), {
      nodeId: ctx.nodeId,
      retryable: false,
    });
  }
  assertCredentialHost(credentialId, data, parsed.data.host, ctx.nodeId);
  return { ...parsed.data, port: Number(parsed.data.port) };
}

/**
 * The SMTP host passes the same outbound guard as HTTP: resolved once, every address checked, and
 * the checked address is what nodemailer connects to (it never resolves the name again).
 */
async function vettedAddress(
  smtp: { host: string; port: number },
  ctx: NodeContext,
): Promise<ResolvedAddress> {
  const guard = ctx.http as Partial<GuardedHttpClient> | undefined;
  if (!guard?.vetHost) throw notConfigured("the outbound address guard", ctx.nodeId);
  try {
    return await guard.vetHost(smtp.host, `smtp://${smtp.host}:${smtp.port}`);
  } catch (err) {
    if (err instanceof NodeError) err.nodeId ??= ctx.nodeId;
    throw err;
  }
}

/** Sends one e-mail per item through the SMTP server of a credential. */
export const sendEmailNode = defineNode({
  type: "email.send",
  typeVersion: 1,
  title: "Send e-mail",
  description: "Sends an e-mail through an SMTP server.",
  category: "communication",
  icon: "send",
  ports: ["main"],
  runMode: "perItem",
  config: z
    .object({
      credentialId: z.string().min(1).describe("SMTP credential (host, port, secure, user, pass, from)"),
      from: z.string().min(3).optional().describe("Sender; defaults to the credential's from"),
      to: addressList.describe("Recipient address or addresses"),
      cc: addressList.optional().describe("Copy addresses"),
      bcc: addressList.optional().describe("Blind copy addresses"),
      replyTo: z.string().min(3).optional().describe("Reply-To address"),
      subject: z.string().min(1).max(998).describe("Subject line"),
      text: z.string().optional().describe("Plain-text body"),
      html: z.string().optional().describe("HTML body"),
      attachmentsField: z
        .string()
        .min(1)
        .optional()
        .describe("Item field holding attachments: a list of {filename, content (base64), contentType?}"),
      timeoutMs: z.number().int().min(1000).max(120_000).default(30_000).describe("SMTP timeout, in ms"),
    })
    .refine((c) => c.text !== undefined || c.html !== undefined, {
      message: "give a text or an html body",
      path: ["text"],
    }),
  example: {
    credentialId: "cred-smtp",
    to: ["ada@example.com"],
    subject: "Your order",
    text: "Thanks for your order.",
    attachmentsField: "files",
  },
  async execute({ config, input, ctx }) {
    const smtp = await smtpSettings(config.credentialId, ctx);
    const item = input[0] ?? { json: {} };
    let attachments: z.infer<typeof attachmentShape> = [];
    if (config.attachmentsField) {
      const raw = getPath(item.json, config.attachmentsField, ctx.nodeId) ?? [];
      const parsed = attachmentShape.safeParse(raw);
      if (!parsed.success) {
        throw new NodeError("input_invalid", formatIssues(`item.${config.attachmentsField}`, parsed.error), {
          nodeId: ctx.nodeId,
          retryable: false,
        });
      }
      attachments = parsed.data;
    }
    const target = await vettedAddress(smtp, ctx);
    const transport = nodemailer.createTransport({
      host: target.address,
      // TLS (implicit or STARTTLS) still verifies the certificate against the host name.
      ...(isIpLiteral(smtp.host) ? {} : { servername: smtp.host }),
      port: smtp.port,
      secure: smtp.secure === "true",
      auth: smtp.user ? { user: smtp.user, pass: smtp.pass ?? "" } : undefined,
      connectionTimeout: config.timeoutMs,
      greetingTimeout: config.timeoutMs,
      socketTimeout: config.timeoutMs,
    });
    const abort = () => transport.close();
    ctx.signal.addEventListener("abort", abort, { once: true });
    try {
      const info = await transport.sendMail({
        from: config.from ?? smtp.from,
        to: config.to,
        cc: config.cc,
        bcc: config.bcc,
        replyTo: config.replyTo,
        subject: config.subject,
        text: config.text,
        html: config.html,
        attachments: attachments.map((a) => ({
          filename: a.filename,
          content: Buffer.from(a.content, "base64"),
          contentType: a.contentType,
        })),
      });
      const json = {
        messageId: info.messageId,
        accepted: info.accepted.map(String),
        rejected: info.rejected.map(String),
        response: info.response,
      };
      return { items: [{ json }] };
    } catch (err) {
      if (ctx.signal.aborted)
        throw new NodeError("cancelled", "sending cancelled", { nodeId: ctx.nodeId, cause: err });
      // 5xx SMTP replies are permanent; everything else (network, 4xx) may pass later.
      const code = (err as { responseCode?: number }).responseCode;
      throw new NodeError("http_failed", `SMTP send failed: ${(err as Error).message}`, {
        nodeId: ctx.nodeId,
        retryable: !(code !== undefined && code >= 500),
        cause: err,
      });
    } finally {
      ctx.signal.removeEventListener("abort", abort);
      transport.close();
    }
  },
});
