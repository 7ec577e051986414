import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { Logger } from "../../logger";
import { createAddressBook } from "./address-book";
import { createAdmittedLog, deliver, type Target } from "./deliver";
import { type Health, createListenerSupervisor } from "./listener-supervisor";
import type { EmailBinding } from "./payload-schema";
import { isSmtpReply, refusalReply, smtpReply } from "./replies";

const MiB = 1024 * 1024;

export interface SmtpIngressOptions {
  host: string;
  port: number;
  domain: string;
  /** Largest message accepted, in bytes (default 25 MiB); a binding may set a smaller one. */
  maxMessageBytes?: number;
  /** Recipients per message (default 20); more are answered 452 so the sender sends them later. */
  maxRecipients?: number;
  /** Concurrent connections (default 50); more are answered 421. */
  maxConnections?: number;
  /** Largest single attachment stored (default 10 MiB); bigger ones are dropped and listed. */
  maxAttachmentBytes?: number;
  /** Attachment bytes stored per message (default 20 MiB); the rest are dropped and listed. */
  maxTotalAttachmentBytes?: number;
  /** Creates the run durably; resolves only after it is committed. */
  admit(binding: EmailBinding, payloadJson: string): Promise<string>;
  storeAttachment(content: Buffer, meta: { filename: string; contentType: string }): Promise<string>;
  log: Logger;
  now?: () => Date;
  onHealth?(h: Health): void;
}

export function createSmtpIngress(o: SmtpIngressOptions) {
  const maxMessageBytes = o.maxMessageBytes ?? 25 * MiB;
  const maxRecipients = o.maxRecipients ?? 20;
  const log = o.log.child({ component: "smtp-ingress" });
  const book = createAddressBook(o.domain);
  const deps = {
    admit: o.admit,
    storeAttachment: o.storeAttachment,
    limits: {
      maxAttachmentBytes: o.maxAttachmentBytes ?? 10 * MiB,
      maxTotalAttachmentBytes: o.maxTotalAttachmentBytes ?? 20 * MiB,
    },
    admitted: createAdmittedLog(),
    log,
  };

  const sender = (session: SMTPServerSession): string =>
    session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address;

  /** Bindings may change between RCPT and DATA; the message goes to the flows bound when it arrives. */
  const targetsOf = (session: SMTPServerSession): Target[] => {
    const byFlow = new Map<string, Target>();
    for (const rcpt of session.envelope.rcptTo) {
      const r = book.resolve(rcpt.address, sender(session));
      if (r.ok && !byFlow.has(r.binding.flowId)) {
        byFlow.set(r.binding.flowId, {
          binding: r.binding,
          recipient: rcpt.address,
          ...(r.tag ? { tag: r.tag } : {}),
        });
      }
    }
    return [...byFlow.values()];
  };

  const onData = (
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    done: (err?: Error | null, message?: string) => void,
  ) => {
    const targets = targetsOf(session);
    const limit = Math.min(
      maxMessageBytes,
      ...targets.map((t) => t.binding.maxMessageBytes ?? maxMessageBytes),
    );
    const chunks: Buffer[] = [];
    let bytes = 0;
    // past the limit the rest is drained, not kept: memory stays bounded by the limit
    stream.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= limit) chunks.push(chunk);
    });
    stream.on("error", (err) => log.warn({ err }, "e-mail data stream failed"));
    stream.on("end", () => {
      if (stream.sizeExceeded || bytes > limit) {
        log.info({ bytes, limit }, "refused an e-mail over the size limit");
        return done(smtpReply(552, `5.3.4 Message too big: the limit is ${limit} bytes`));
      }
      if (targets.length === 0) return done(smtpReply(550, "5.1.1 None of the recipients is bound any more"));
      deliver(Buffer.concat(chunks), sender(session), targets, deps).then(
        (runIds) => {
          supervisor.touch();
          log.info({ runIds, flows: targets.map((t) => t.binding.flowId), bytes }, "admitted an e-mail");
          done(null, `OK: queued as ${runIds.join(",")}`);
        },
        (err: unknown) => {
          if (isSmtpReply(err)) return done(err);
          log.error({ err }, "e-mail delivery failed unexpectedly");
          done(smtpReply(451, "4.3.0 Local error while processing the message, please try again later"));
        },
      );
    });
  };

  const newServer = () =>
    new SMTPServer({
      name: o.domain,
      banner: "Switchyard inbound mail",
      logger: false,
      secure: false,
      disabledCommands: ["AUTH", "STARTTLS"],
      authOptional: true,
      size: maxMessageBytes,
      rejectOversized: true,
      maxClients: o.maxConnections ?? 50,
      closeTimeout: 10_000,
      onRcptTo(address, session, cb) {
        if (session.envelope.rcptTo.length >= maxRecipients) {
          return cb(smtpReply(452, `4.5.3 Too many recipients: at most ${maxRecipients} per message`));
        }
        const args = session.envelope.mailFrom === false ? false : session.envelope.mailFrom.args;
        const declared = args === false ? Number.NaN : Number(args.SIZE);
        const r = book.resolve(
          address.address,
          sender(session),
          Number.isFinite(declared) ? declared : undefined,
        );
        if (r.ok) return cb();
        log.info(
          { recipient: address.address, sender: sender(session), refusal: r.refusal.kind },
          "refused an e-mail recipient",
        );
        cb(refusalReply(r.refusal, address.address, o.domain));
      },
      onData,
    });

  const supervisor = createListenerSupervisor({
    host: o.host,
    port: o.port,
    newServer,
    log,
    now: o.now,
    onHealth: o.onHealth,
  });

  return {
    start: supervisor.start,
    stop: supervisor.stop,
    /** Binds a flow's address; throws when another flow owns the local part. */
    bind: (b: EmailBinding): void => book.bind(b),
    unbind: (flowId: string): void => book.unbind(flowId),
    health: supervisor.health,
    /** Test hook: the listener fails as if the OS had torn it down. */
    simulateFailure: supervisor.simulateFailure,
  };
}

export type SmtpIngress = ReturnType<typeof createSmtpIngress>;
