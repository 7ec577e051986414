/** The IMAP trigger's config; its runs receive the e-mail trigger's payload (`emailPayload`). */
import { z } from "zod";

/** An existing mailbox, polled (and watched with IDLE where the server offers it) for unread mail. */
export const imapConfig = z
  .object({
    credentialId: z.string().min(1).describe("IMAP credential (host, port, secure, user, password)"),
    mailbox: z.string().min(1).max(255).default("INBOX").describe("Mailbox (folder) to watch"),
    after: z
      .enum(["mark_read", "move"])
      .default("mark_read")
      .describe("What happens to a message once its run is admitted: marked as read, or moved"),
    moveTo: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("Mailbox to move handled messages to (after: move)"),
    pollSeconds: z
      .number()
      .int()
      .min(5)
      .max(86_400)
      .default(60)
      .describe(
        "Seconds between checks (new mail also wakes the trigger at once when the server supports IDLE)",
      ),
  })
  .refine((c) => c.after !== "move" || c.moveTo !== undefined, {
    path: ["moveTo"],
    message: "give the mailbox to move handled messages to",
  })
  .refine((c) => c.after !== "move" || c.moveTo !== c.mailbox, {
    path: ["moveTo"],
    message: "moving to the watched mailbox itself would read every message again",
  });
export type ImapConfig = z.infer<typeof imapConfig>;
