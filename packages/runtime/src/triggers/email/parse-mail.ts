import { type ParsedMail, simpleParser } from "mailparser";

/**
 * The most HTML (all of a message's HTML parts together) turned into a text body for a message without a text part.
 * Past it `text` stays empty and the HTML is still in `html`. The slowest markup measured at this size (a long
 * table) took ≈ 0.15 s to convert; a 3.7 MB one held the event loop 18 s, which is why there is a bound at all.
 */
export const HTML_TO_TEXT_MAX_CHARS = 256 * 1024;

// cid: links stay as they are: inline images are stored attachments, not data: URLs in the html.
const options = { skipTextToHtml: true, skipImageLinks: true, keepCidLinks: true } as const;

/**
 * Parses an inbound message (SMTP and IMAP). mailparser converts HTML to text on the event loop, in time that grows
 * faster than the HTML, and it converts each HTML part on its own, so a limit per part does not bound a message
 * with many parts. The first parse converts nothing. Only a message with no text part of its own and little HTML is
 * parsed again with the conversion on (twice the parsing, only for such messages; the conversion itself is bounded).
 * A message with a text part keeps that text: HTML parts beside it are not converted into it.
 */
export async function parseMail(raw: Buffer): Promise<ParsedMail> {
  const mail = await simpleParser(raw, { ...options, skipHtmlToText: true });
  const html = typeof mail.html === "string" ? mail.html : "";
  if (mail.text?.trim() || html.length === 0 || html.length > HTML_TO_TEXT_MAX_CHARS) return mail;
  return simpleParser(raw, { ...options, maxHtmlLengthToParse: HTML_TO_TEXT_MAX_CHARS });
}

/** How many From header fields the message has (RFC 5322 allows one; mailparser reads only the first). */
export function fromHeaderCount(mail: ParsedMail): number {
  return mail.headerLines.filter((h) => h.key === "from").length;
}
