import { randomUUID } from "node:crypto";
import type { SecretsReader } from "@switchyard/engine";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeNode } from "../__tests__/execute-node";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { freePort, type PrivateMosquitto, startMosquitto } from "../__tests__/private-brokers";
import { createHttpClient, type GuardedHttpClient } from "../http/client";
import { createSharedConnections } from "../util/connections";
import { mqttPublishNode } from "./publish";

// The machine's shared Mosquitto (anonymous); every test uses its own topic.
const SHARED = 1883;
const cred = (over: Record<string, string> = {}) => ({
  host: "127.0.0.1",
  port: String(SHARED),
  allowedHosts: "127.0.0.1",
  ...over,
});
const secrets = (data: Record<string, string>): SecretsReader => ({
  get: async () => ({ type: "mqtt", data }),
});
// The host's outbound guard, letting loopback through as a test allow-list does.
const guard = createHttpClient({ allowHosts: ["127.0.0.1"] });

let connections = createSharedConnections();
const publish = (
  config: Record<string, unknown>,
  data: Record<string, string> = cred(),
  http: GuardedHttpClient = guard,
) =>
  executeNode(mqttPublishNode, {
    config: { credentialId: "c-mqtt", ...config } as never,
    input: items({}),
    ctx: fakeCtx({ nodeId: "pub", secrets: secrets(data), http, connections }),
  });

let sub: MqttClient;
beforeAll(async () => {
  sub = await mqtt.connectAsync({ host: "127.0.0.1", port: SHARED, clientId: `sy-test-${randomUUID()}` });
});
afterAll(async () => {
  await sub.endAsync();
  await connections.closeAll();
});

/** Subscribes, then gives a promise of the next `count` messages on the topic. */
async function receive(topic: string, count = 1) {
  const got: { payload: string; qos: number; retain: boolean }[] = [];
  await sub.subscribeAsync(topic, { qos: 1 });
  const done = new Promise<typeof got>((resolve) => {
    sub.on("message", (t, payload, packet) => {
      if (t !== topic) return;
      got.push({ payload: payload.toString(), qos: packet.qos, retain: packet.retain });
      if (got.length === count) resolve(got);
    });
  });
  return { done };
}

describe("mqtt.publish against the machine's Mosquitto", () => {
  it("publishes objects as JSON and strings as they are, with QoS 1, and reports the broker's acknowledgement", async () => {
    const topic = `sy-test/${randomUUID()}/readings`;
    const arrived = await receive(topic, 2);
    const out = await publish({ topic, message: { temperature: 21.5 } });
    expect(out).toEqual({ items: [{ json: { topic, qos: 1, retain: false, acknowledged: true } }] });
    await publish({ topic, message: "plain text" });
    expect(await arrived.done).toEqual([
      { payload: '{"temperature":21.5}', qos: 1, retain: false },
      { payload: "plain text", qos: 1, retain: false },
    ]);
  });

  it("shares one connection per credential between runs and reopens it after the idle timeout closed it", async () => {
    await connections.closeAll();
    connections = createSharedConnections({ idleMs: 50 });
    const topic = `sy-test/${randomUUID()}`;
    const arrived = await receive(topic, 2);
    await Promise.all([publish({ topic, message: 1 }), publish({ topic, message: 2 })]);
    expect(connections.keys()).toHaveLength(1);
    // Closed once unused: wait for the condition, whatever the machine's speed.
    while (connections.keys().length > 0) await new Promise((r) => setTimeout(r, 20));
    await publish({ topic, message: 3, qos: 0 });
    expect((await arrived.done).map((m) => m.payload).sort()).toEqual(["1", "2"]);
    await connections.closeAll();
    expect(connections.keys()).toEqual([]);
    connections = createSharedConnections();
  });

  it("keeps a retained message when asked", async () => {
    const topic = `sy-test/${randomUUID()}/state`;
    await publish({ topic, message: "on", retain: true });
    const late = await mqtt.connectAsync({
      host: "127.0.0.1",
      port: SHARED,
      clientId: `sy-test-${randomUUID()}`,
    });
    const got = new Promise<{ payload: string; retain: boolean }>((resolve) =>
      late.on("message", (_t, payload, packet) =>
        resolve({ payload: payload.toString(), retain: packet.retain }),
      ),
    );
    await late.subscribeAsync(topic, { qos: 1 });
    expect(await got).toEqual({ payload: "on", retain: true });
    // Clear the retained message again (an empty retained publish deletes it).
    await late.publishAsync(topic, "", { retain: true, qos: 1 });
    await late.endAsync();
  });
});

describe("mqtt.publish errors", () => {
  let secured: PrivateMosquitto;
  beforeAll(async () => {
    secured = await startMosquitto({ users: { sensor: "right-pass" } });
  });
  afterAll(() => secured.stop());

  it("names the broker and gives its reason when the password is wrong", async () => {
    const data = cred({ port: String(secured.port), user: "sensor", password: "wrong-pass" });
    await expect(publish({ topic: "a/b", message: 1 }, data)).rejects.toMatchObject({
      code: "service_failed",
      nodeId: "pub",
      retryable: false,
      message: `MQTT broker 127.0.0.1:${secured.port} refused the connection: Not authorized`,
    });
    // The right password gets through on the same broker.
    const ok = cred({ port: String(secured.port), user: "sensor", password: "right-pass" });
    await expect(publish({ topic: "a/b", message: 1 }, ok)).resolves.toMatchObject({
      items: [{ json: { topic: "a/b" } }],
    });
  });

  it("names the broker and the socket error when nothing listens", async () => {
    const port = await freePort();
    await expect(publish({ topic: "a/b", message: 1 }, cred({ port: String(port) }))).rejects.toMatchObject({
      code: "service_failed",
      nodeId: "pub",
      message: `MQTT broker 127.0.0.1:${port} is unreachable: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it("refuses a host the credential is not bound to, before connecting", async () => {
    await expect(
      publish({ topic: "a/b", message: 1 }, cred({ allowedHosts: "mqtt.example.com" })),
    ).rejects.toMatchObject({
      code: "policy_denied",
      nodeId: "pub",
      message: 'credential "c-mqtt" may not be sent to 127.0.0.1: its allowed hosts are mqtt.example.com',
    });
  });

  it("refuses a loopback broker the outbound guard does not allow, even when the credential lists it", async () => {
    await expect(
      publish({ topic: "a/b", message: 1 }, cred(), createHttpClient({ allowHosts: [] })),
    ).rejects.toMatchObject({
      code: "policy_denied",
      nodeId: "pub",
      message: "request to mqtt://127.0.0.1:1883 refused: 127.0.0.1 is a loopback address",
    });
  });

  it("refuses a topic with wildcards, naming the node and field", async () => {
    await expect(publish({ topic: "sensors/+/t", message: 1 })).rejects.toThrow(
      'node "pub" field "topic": a topic to publish to cannot contain + or # (those are for filters)',
    );
  });

  it("drops a shared connection whose broker died, reports the broker unreachable, and reconnects once it is back", async () => {
    const broker = await startMosquitto();
    await connections.closeAll();
    connections = createSharedConnections();
    try {
      const data = cred({ port: String(broker.port) });
      await publish({ topic: "a/b", message: 1 }, data);
      expect(connections.keys()).toHaveLength(1);
      await broker.kill();
      // The dead connection leaves the registry by itself (its 'close'), so no run is handed it.
      while (connections.keys().length > 0) await new Promise((r) => setTimeout(r, 20));
      await expect(publish({ topic: "a/b", message: 2 }, data)).rejects.toMatchObject({
        code: "service_failed",
        message: `MQTT broker 127.0.0.1:${broker.port} is unreachable: connect ECONNREFUSED 127.0.0.1:${broker.port}`,
      });
      await broker.restart();
      await expect(publish({ topic: "a/b", message: 3 }, data)).resolves.toMatchObject({
        items: [{ json: { acknowledged: true } }],
      });
    } finally {
      await broker.stop();
    }
  });
});
