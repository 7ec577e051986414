import { amqpCredentialFields } from "@switchyard/contracts/credentials";
import type { SecretsReader } from "@switchyard/engine";
import type { ChannelModel } from "amqplib";
import { NodeError } from "../errors";
import type { GuardedHttpClient } from "../http/client";
import { isIpLiteral } from "../http/ssrf";
import { type BrokerTarget, brokerTarget } from "../util/broker-target";

/** The stored AMQP credential's fields; its allowed hosts are checked by brokerTarget. */
export const amqpSettingsSchema = amqpCredentialFields.omit({ allowedHosts: true });
export type AmqpSettings = ReturnType<typeof amqpSettingsSchema.parse>;
export type AmqpTarget = BrokerTarget<AmqpSettings>;

export const amqpTarget = (o: {
  credentialId: string;
  secrets: SecretsReader | undefined;
  guard: Partial<GuardedHttpClient> | undefined;
  nodeId: string;
}) => brokerTarget({ ...o, schema: amqpSettingsSchema, scheme: "amqp" });

/** `host:port` as errors name the broker. */
export const amqpServer = (t: AmqpTarget) => `${t.settings.host}:${t.settings.port}`;

/**
 * What the broker said, without amqplib's framing: `ACCESS_REFUSED - Login was refused …` rather than
 * `Handshake terminated by server: 403 (ACCESS-REFUSED) with message "…"`.
 */
export function brokerMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const quoted = /with message "(.*)"$/s.exec(text);
  return quoted ? quoted[1]! : text;
}

/**
 * Opens one connection to the vetted address. A refusal names the broker and carries its reason;
 * heartbeats notice a broker that vanished without closing the socket (a SIGKILLed node's host).
 */
export async function connectAmqp(
  t: AmqpTarget,
  o: { timeoutMs: number; nodeId?: string; heartbeatSec?: number },
): Promise<ChannelModel> {
  const { settings, address } = t;
  try {
    // Loaded on first use, as the database drivers are: a host without AMQP never pays for the client.
    const { default: amqp } = await import("amqplib");
    return await amqp.connect(
      {
        protocol: settings.secure === "true" ? "amqps" : "amqp",
        hostname: address.address,
        port: Number(settings.port),
        username: settings.user,
        password: settings.password,
        vhost: settings.vhost,
        heartbeat: o.heartbeatSec ?? 15,
      },
      {
        timeout: o.timeoutMs,
        // TLS still verifies the certificate against the host name, not the vetted address.
        ...(isIpLiteral(settings.host) ? {} : { servername: settings.host }),
      },
    );
  } catch (err) {
    const msg = brokerMessage(err);
    const refused = /ACCESS_REFUSED|NOT_ALLOWED|access to vhost/i.test(msg);
    throw new NodeError(
      "service_failed",
      refused
        ? `AMQP broker ${amqpServer(t)} refused the connection: ${msg}`
        : `AMQP broker ${amqpServer(t)} is unreachable: ${msg}`,
      { ...(o.nodeId ? { nodeId: o.nodeId } : {}), retryable: !refused, cause: err },
    );
  }
}

/** How long a clean close may take before the socket is dropped instead. */
const CLOSE_WITHIN_MS = 5_000;

/**
 * Closes a connection without ever waiting forever. amqplib settles `close()` only when the broker answers
 * Close-Ok, and a connection the broker already lost (a SIGKILLed or restarted node) never does
 * (amqp-node/amqplib#181): awaiting it would stall a reconnect or a shutdown for good. After `ms` the socket
 * is destroyed (and at once when amqplib refuses the close), which is what the broker sees when a client dies:
 * its unacknowledged messages go back to the queue.
 */
export async function closeAmqp(conn: ChannelModel, ms = CLOSE_WITHIN_MS): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
  });
  // A refused close (already closing or closed) drops the socket too: destroying a closed one is harmless.
  const closed = conn.close().then(
    () => "closed" as const,
    () => "refused" as const,
  );
  const how = await Promise.race([closed, late]);
  clearTimeout(timer);
  if (how !== "closed") (conn.connection as unknown as { stream?: { destroy(): void } }).stream?.destroy();
}
