import type { AddressObject, Attachment, EmailAddress, HeaderLines, ParsedMail } from "mailparser";
import type {
  DroppedAttachment,
  EmailPayload as EmailRunPayload,
  StoredAttachment,
} from "@switchyard/contracts/triggers";

/** The payload fields every flow a message reaches shares; recipient and tag are per flow. */
export type SharedPayload = Omit<EmailRunPayload, "recipient" | "tag">;

export interface AttachmentLimits {
  maxAttachmentBytes: number;
  maxTotalAttachmentBytes: number;
}

export type StoreAttachment = (
  content: Buffer,
  meta: { filename: string; contentType: string },
) => Promise<string>;

function flatten(list: EmailAddress[]): EmailAddress[] {
  return list.flatMap((a) => (a.group ? flatten(a.group) : [a]));
}

function addresses(header: AddressObject | AddressObject[] | undefined): string[] {
  const objects = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return objects.flatMap((o) => flatten(o.value)).flatMap((a) => (a.address ? [a.address] : []));
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** 8-bit header bytes are nearly always UTF-8; anything else is read as Latin-1 rather than mangled. */
function decodeHeaderBytes(latin1: string): string {
  try {
    return strictUtf8.decode(Buffer.from(latin1, "latin1"));
  } catch {
    return latin1;
  }
}

// RFC 5322 field names: printable ASCII but the colon. Lines mailparser keeps that are not
// headers at all (no colon, binary junk) are left out.
const FIELD_NAME = /^[!-9;-~]+$/;

/**
 * Header lines arrive as latin1 strings of the raw bytes. Folding is undone; encoded words are
 * left as sent (the named payload fields carry the decoded values). Every name — `__proto__` and
 * `constructor` included — is an ordinary own key, as JSON.parse of the stored payload has it (#18).
 */
export function headerRecord(lines: HeaderLines): Record<string, string> {
  const merged = new Map<string, string>();
  for (const { key, line } of lines) {
    const name = key.toLowerCase();
    if (!FIELD_NAME.test(name)) continue;
    const raw = line.slice(line.indexOf(":") + 1);
    const value = decodeHeaderBytes(raw.replace(/\r?\n[ \t]+/g, " ")).trim();
    const prior = merged.get(name);
    merged.set(name, prior === undefined ? value : `${prior}\n${value}`);
  }
  return Object.fromEntries(merged);
}

/** mailparser substitutes "now" for an unparseable Date header; a flow should see "absent" instead. */
function headerDate(headers: Record<string, string>): string | undefined {
  const raw = headers.date?.split("\n")[0];
  if (!raw) return undefined;
  const d = new Date(raw);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/**
 * Stores attachments in order while they fit both caps; the rest are listed as dropped with the
 * reason, so a flow can tell "no attachment" from "attachment refused".
 */
export async function storeAttachments(
  list: Attachment[],
  limits: AttachmentLimits,
  store: StoreAttachment,
): Promise<{ stored: StoredAttachment[]; dropped: DroppedAttachment[] }> {
  const stored: StoredAttachment[] = [];
  const dropped: DroppedAttachment[] = [];
  let total = 0;
  for (const [i, a] of list.entries()) {
    const meta = {
      filename: a.filename ?? `attachment-${i + 1}`,
      contentType: a.contentType || "application/octet-stream",
    };
    const size = a.content.length;
    if (size > limits.maxAttachmentBytes) {
      dropped.push({ ...meta, size, reason: "attachment_too_large" });
    } else if (total + size > limits.maxTotalAttachmentBytes) {
      dropped.push({ ...meta, size, reason: "total_too_large" });
    } else {
      total += size;
      stored.push({ id: await store(a.content, meta), ...meta, size });
    }
  }
  return { stored, dropped };
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s === "" ? undefined : s;
}

/** Turns a parsed message into the shared payload; `envelopeFrom` stands in for a missing From header. */
export function sharedPayload(
  mail: ParsedMail,
  envelopeFrom: string,
  attachments: { stored: StoredAttachment[]; dropped: DroppedAttachment[] },
): SharedPayload {
  const headers = headerRecord(mail.headerLines);
  const sender = mail.from ? flatten(mail.from.value).find((a) => a.address) : undefined;
  // undefined optionals vanish in JSON, so an absent header stays absent rather than ""
  return {
    from: sender?.address ?? envelopeFrom,
    fromName: nonEmpty(sender?.name),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    subject: mail.subject ?? "",
    date: headerDate(headers),
    messageId: nonEmpty(mail.messageId),
    inReplyTo: nonEmpty(mail.inReplyTo),
    // "" when a message's only HTML was too long to convert (parse-mail.ts): absent, like every empty optional
    text: nonEmpty(mail.text),
    html: typeof mail.html === "string" ? mail.html : undefined,
    headers,
    attachments: attachments.stored,
    droppedAttachments: attachments.dropped,
  };
}
