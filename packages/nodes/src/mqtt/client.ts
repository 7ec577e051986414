import { randomBytes } from "node:crypto";
import { mqttCredentialFields } from "@switchyard/contracts/credentials";
import type { SecretsReader } from "@switchyard/engine";
import type { IPublishPacket, MqttClient } from "mqtt";
import { NodeError } from "../errors";
import type { GuardedHttpClient } from "../http/client";
import { isIpLiteral } from "../http/ssrf";
import { type BrokerTarget, brokerTarget } from "../util/broker-target";

/** The stored MQTT credential's fields; its allowed hosts are checked by brokerTarget. */
export const mqttSettingsSchema = mqttCredentialFields.omit({ allowedHosts: true });
export type MqttSettings = ReturnType<typeof mqttSettingsSchema.parse>;
export type MqttTarget = BrokerTarget<MqttSettings>;

export const mqttTarget = (o: {
  credentialId: string;
  secrets: SecretsReader | undefined;
  guard: Partial<GuardedHttpClient> | undefined;
  nodeId: string;
}) => brokerTarget({ ...o, schema: mqttSettingsSchema, scheme: "mqtt" });

/** `host:port` as errors name the broker. */
export const mqttServer = (t: MqttTarget) => `${t.settings.host}:${t.settings.port}`;

/** A client id for a one-off publisher: the credential's prefix and a random suffix (ids must be unique per broker). */
export const publisherClientId = (t: MqttTarget) =>
  `${t.settings.clientIdPrefix}-pub-${randomBytes(6).toString("hex")}`;

/**
 * Connects once (no automatic reconnect: the caller decides, with its own backoff) and resolves when
 * the broker accepted the session. A refusal names the broker and carries its reason.
 */
export async function connectMqtt(
  t: MqttTarget,
  o: {
    clientId: string;
    clean: boolean;
    timeoutMs: number;
    nodeId?: string;
    /** Handles each incoming message; its PUBACK (QoS 1) is sent only once this resolved. */
    handleMessage?: (packet: IPublishPacket) => Promise<void>;
  },
): Promise<MqttClient> {
  const { settings, address } = t;
  // Loaded on first use, as the database drivers are: a host without MQTT never pays for the client.
  const { default: mqtt } = await import("mqtt");
  const client = mqtt.connect({
    host: address.address,
    port: Number(settings.port),
    protocol: settings.secure === "true" ? "mqtts" : "mqtt",
    // TLS still verifies the certificate against the host name, not the vetted address.
    ...(isIpLiteral(settings.host) ? {} : { servername: settings.host }),
    clientId: o.clientId,
    clean: o.clean,
    protocolVersion: 4,
    ...(settings.user ? { username: settings.user, password: settings.password } : {}),
    connectTimeout: o.timeoutMs,
    reconnectPeriod: 0,
  });
  // Set before the CONNACK can arrive: a persistent session's queued messages follow it at once.
  const handle = o.handleMessage;
  if (handle)
    client.handleMessage = (packet, done) => {
      handle(packet).then(
        () => done(),
        (err: Error) => done(err),
      );
    };
  return new Promise<MqttClient>((resolve, reject) => {
    const fail = (why: string, cause?: unknown) => {
      client.removeAllListeners("connect");
      client.end(true);
      reject(
        new NodeError("service_failed", `MQTT broker ${mqttServer(t)} ${why}`, {
          ...(o.nodeId ? { nodeId: o.nodeId } : {}),
          retryable: !why.startsWith("refused"),
          cause,
        }),
      );
    };
    client.once("connect", () => {
      client.removeAllListeners("error");
      client.removeAllListeners("close");
      // A socket error later is emitted as 'error', which would crash the process unheard; the
      // connection's end shows as 'close', which its owner listens to.
      client.on("error", () => {});
      resolve(client);
    });
    client.once("error", (err: Error & { code?: string | number }) =>
      typeof err.code === "number"
        ? fail(`refused the connection: ${err.message.replace(/^Connection refused: /, "")}`, err)
        : fail(`is unreachable: ${err.message}`, err),
    );
    // A close before connect/error: the timeout or a socket the broker dropped without CONNACK.
    client.once("close", () => fail(`did not accept the connection within ${o.timeoutMs} ms`));
  });
}
