import { natsCredentialFields } from "@switchyard/contracts/credentials";
import type { NatsConnection } from "@nats-io/transport-node";
import { z } from "zod";
import { serviceError } from "../connections/errors";
import { serverTarget, serverTimeoutMs, useShared } from "../connections/server";
import { defineNode } from "../define";
import { NodeError } from "../errors";

const fields = natsCredentialFields.omit({ allowedHosts: true });

/** A publish subject: dot-separated tokens, no spaces, no wildcards (those are for subscribers). */
const subject = z
  .string()
  .min(1)
  .max(512)
  .refine((s) => s.split(".").every((t) => t.length > 0 && !/[\s*>]/.test(t)), {
    message: "a subject is dot-separated tokens without spaces or wildcards (* and > are for subscribers)",
  });

/** Publishes one message per item to a NATS subject and waits until the server has it. */
export const natsPublishNode = defineNode({
  type: "nats.publish",
  typeVersion: 1,
  title: "NATS publish",
  description: "Publishes a message to a NATS subject.",
  category: "communication",
  icon: "send",
  ports: ["main"],
  runMode: "perItem",
  config: z.object({
    credentialId: z.string().min(1).describe("NATS credential"),
    subject: subject.describe("Subject to publish to, e.g. orders.created"),
    message: z.unknown().describe("The message; objects are sent as JSON, strings as they are"),
    timeoutMs: serverTimeoutMs("Connect and flush"),
  }),
  example: { credentialId: "cred-nats", subject: "orders.created", message: "{{ item }}" },
  async execute({ config, ctx }) {
    const target = await serverTarget(ctx, {
      credentialId: config.credentialId,
      type: "nats",
      fields,
      scheme: "nats",
    });
    const { port, user, password, token } = target.fields;
    const data = typeof config.message === "string" ? config.message : JSON.stringify(config.message ?? null);
    try {
      await useShared(
        ctx,
        target.poolKey,
        {
          // The client loads on first use: a host that never publishes to NATS never pays for it.
          open: async () =>
            (await import("@nats-io/transport-node")).connect({
              servers: `${target.address.family === 6 ? `[${target.address.address}]` : target.address.address}:${port}`,
              ...(user ? { user, pass: password } : {}),
              ...(token ? { token } : {}),
              timeout: config.timeoutMs,
              name: "switchyard",
              // Only the vetted address: servers the cluster announces were never checked by the guard.
              ignoreClusterUpdates: true,
              maxReconnectAttempts: -1,
            }),
          close: async (nc: NatsConnection) => {
            await nc.drain().catch(() => nc.close());
          },
        },
        async (nc) => {
          if (nc.isClosed()) throw new Error("the connection to the NATS server is closed");
          nc.publish(config.subject, data);
          // publish only buffers; flush returns once the server has processed everything sent before it.
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<never>((_, reject) => {
            timer = setTimeout(
              () =>
                reject(
                  new NodeError(
                    "timeout",
                    `node "${ctx.nodeId}": NATS: no answer from the server within ${config.timeoutMs} ms`,
                    { nodeId: ctx.nodeId },
                  ),
                ),
              config.timeoutMs,
            );
          });
          try {
            await Promise.race([nc.flush(), timeout]);
          } finally {
            clearTimeout(timer);
          }
        },
      );
    } catch (err) {
      if (err instanceof NodeError) throw err;
      // The client's errors are terse ("connection refused"); the socket error in `cause` names the address.
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      const detail = cause ? new Error(`${(err as Error).message}: ${cause}`, { cause: err }) : err;
      throw serviceError(ctx.nodeId, "NATS", detail, { retryable: true });
    }
    return { items: [{ json: { subject: config.subject, bytes: Buffer.byteLength(data) } }] };
  },
});
