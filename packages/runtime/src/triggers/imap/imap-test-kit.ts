import type { ImapConfig } from "@switchyard/contracts/triggers";
import { ImapFlow } from "imapflow";
import type { Dovecot } from "../../__tests__/dovecot";

/** A message as a sender would write it (CRLF line ends). */
export function message(o: { subject: string; from?: string; text?: string; attachment?: string }): string {
  const head = [
    `From: ${o.from ?? "Ada <ada@example.com>"}`,
    "To: inbox@example.com",
    `Subject: ${o.subject}`,
    `Message-ID: <${o.subject.replace(/\W/g, "")}@example.com>`,
    "Date: Tue, 01 Dec 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
  ];
  if (!o.attachment)
    return [...head, "Content-Type: text/plain; charset=utf-8", "", o.text ?? "hello", ""].join("\r\n");
  return [
    ...head,
    'Content-Type: multipart/mixed; boundary="b1"',
    "",
    "--b1",
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.text ?? "see attached",
    "--b1",
    'Content-Type: text/plain; name="note.txt"',
    'Content-Disposition: attachment; filename="note.txt"',
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from(o.attachment).toString("base64"),
    "--b1--",
    "",
  ].join("\r\n");
}

/** A second IMAP session on the test server: delivers mail (APPEND) and looks at flags and folders. */
export async function mailbox(dovecot: Dovecot, user: string, password: string) {
  const c = new ImapFlow({
    host: "127.0.0.1",
    port: dovecot.port,
    secure: false,
    auth: { user, pass: password },
    logger: false,
  });
  await c.connect();
  const unseen = async (folder = "INBOX") => {
    const lock = await c.getMailboxLock(folder);
    try {
      const all = ((await c.search({ all: true }, { uid: true })) || []).length;
      const unread = ((await c.search({ seen: false }, { uid: true })) || []).length;
      return { all, unread };
    } finally {
      lock.release();
    }
  };
  return {
    deliver: (raw: string, folder = "INBOX") => c.append(folder, raw),
    create: (folder: string) => c.mailboxCreate(folder),
    /** How many messages the folder holds, and how many of them are unread. */
    count: unseen,
    close: () => c.logout(),
  };
}

export const imapConfig = (o: Partial<ImapConfig> & { credentialId: string }): ImapConfig => ({
  mailbox: "INBOX",
  after: "mark_read",
  pollSeconds: 3600,
  ...o,
});
