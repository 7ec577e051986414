/**
 * `send_email`: send one plain-text e-mail through the SMTP credential the host configured for agents
 * (the `email.send` node's machinery: credential host binding and the outbound address guard).
 */
import { z } from "zod";
import { type ActionCapabilities, toolJson } from "./actions";
import type { Tool } from "./tool";

const address = z.string().min(3).max(320).includes("@", { message: "must be an e-mail address" });
const addresses = z.union([address, z.array(address).min(1).max(50)]);

const input = z.strictObject({
  to: addresses.describe("Recipient address or addresses"),
  cc: addresses.optional().describe("Copy addresses"),
  subject: z.string().min(1).max(998).describe("Subject line"),
  text: z.string().min(1).max(100_000).describe("Plain-text body"),
});

const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);

export function createSendEmailTool(cap: ActionCapabilities): Tool {
  return {
    name: "send_email",
    description:
      "Send a plain-text e-mail. It leaves at once and cannot be recalled: send only what the task asks for, to the addresses it names.",
    permission: "write",
    network: true,
    inputSchema: input,
    async execute(args, ctx) {
      const a = input.parse(args);
      const sent = await cap.sendEmail(
        {
          to: list(a.to),
          ...(a.cc ? { cc: list(a.cc) } : {}),
          subject: a.subject,
          text: a.text,
        },
        ctx.signal,
      );
      return `E-mail sent.\n${toolJson(sent)}`;
    },
  };
}
