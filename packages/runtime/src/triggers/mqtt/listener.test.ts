import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type PrivateMosquitto, startMosquitto } from "../../../../nodes/src/__tests__/private-brokers";
import { allowLoopback, brokerCredential, payloadsOf, triggerFlow, until } from "../../__tests__/broker-host";
import { startTestHost } from "../../__tests__/test-host";
import { parseConfig } from "../../config";
import { createHost, type Host } from "../../host";
import { createLogger } from "../../logger";

// The machine's shared Mosquitto (anonymous) for the ordinary tests; every test uses its own topics.
let pub: MqttClient;
beforeAll(async () => {
  pub = await mqtt.connectAsync({ host: "127.0.0.1", port: 1883, clientId: `sy-test-${randomUUID()}` });
});
afterAll(() => pub.endAsync());

let t: Awaited<ReturnType<typeof startTestHost>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function activate(host: Host, definition: unknown) {
  const { id } = await host.flows.create({ name: "Sensors", definition });
  await host.control.setActive(id, true);
  return id;
}
/** Subscribed (health says `listening` from the bind on; the client's subscription is what counts here). */
const listening = (host: Host, flowId: string) =>
  until(
    "listening",
    () =>
      host.services.triggers.health(flowId)?.status === "listening" &&
      host.services.brokers.mqtt.connected().includes(flowId),
    20_000,
    () => host.services.triggers.health(flowId),
  );

describe("trigger.mqtt against the machine's Mosquitto", { timeout: 60_000 }, () => {
  it("starts one run per message matching its filter, with the agreed payload", async () => {
    t = await startTestHost();
    await allowLoopback(t.host);
    const credentialId = await brokerCredential(t.host, "mqtt", { port: "1883" });
    const base = `sy-test/${randomUUID()}`;
    const flowId = await activate(
      t.host,
      triggerFlow("trigger.mqtt", { credentialId, topic: `${base}/+/temp` }),
    );
    await listening(t.host, flowId);
    expect(t.host.services.triggers.health(flowId)).toMatchObject({
      type: "trigger.mqtt",
      status: "listening",
    });

    await pub.publishAsync(`${base}/kitchen/temp`, '{"c":21.5}', { qos: 1 });
    await pub.publishAsync(`${base}/kitchen/humidity`, "40", { qos: 1 }); // not matched by the filter
    await pub.publishAsync(`${base}/hall/temp`, "warm", { qos: 0 });
    await until(
      "two runs",
      () => payloadsOf(t!.host, flowId).length === 2,
      20_000,
      () => ({
        payloads: payloadsOf(t!.host, flowId),
        health: t!.host.services.triggers.health(flowId),
      }),
    );
    const payloads = payloadsOf(t.host, flowId).sort((a, b) =>
      String(a.topic).localeCompare(String(b.topic)),
    );
    expect(payloads).toEqual([
      { topic: `${base}/hall/temp`, message: "warm", qos: 0, retain: false, receivedAt: expect.any(String) },
      {
        topic: `${base}/kitchen/temp`,
        message: { c: 21.5 },
        qos: 1,
        retain: false,
        receivedAt: expect.any(String),
      },
    ]);
    const { runs } = await t.host.runs.list({ flowId });
    expect(runs.every((r) => r.channel === "webhook")).toBe(true);
  });

  it("receives what was published while the host was down (persistent session), once it is back", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sy-mqtt-host-"));
    const config = parseConfig({ SWITCHYARD_DATA_DIR: dir, SWITCHYARD_SMTP_PORT: "0", LOG_LEVEL: "silent" });
    const topic = `sy-test/${randomUUID()}/events`;
    try {
      const first = await createHost(config, createLogger("silent"), { seed: false });
      await first.start();
      await allowLoopback(first);
      const credentialId = await brokerCredential(first, "mqtt", { port: "1883" });
      const flowId = await activate(first, triggerFlow("trigger.mqtt", { credentialId, topic }));
      await listening(first, flowId);
      await first.close();

      // Nobody is connected for this client id now; the broker keeps QoS 1 messages in its session.
      await pub.publishAsync(topic, '{"while":"down","n":1}', { qos: 1 });
      await pub.publishAsync(topic, '{"while":"down","n":2}', { qos: 1 });

      const second = await createHost(config, createLogger("silent"), { seed: false });
      try {
        await second.start();
        await until("both runs", () => payloadsOf(second, flowId).length === 2);
        expect(payloadsOf(second, flowId).map((p) => p.message)).toEqual([
          { while: "down", n: 1 },
          { while: "down", n: 2 },
        ]);
        // Deactivated: the client goes away (its session stays with the broker until it expires).
        await second.control.setActive(flowId, false);
        expect(second.services.brokers.mqtt.connected()).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("moves to the new filter on an edit", async () => {
    t = await startTestHost();
    await allowLoopback(t.host);
    const credentialId = await brokerCredential(t.host, "mqtt", { port: "1883" });
    const base = `sy-test/${randomUUID()}`;
    const flowId = await activate(
      t.host,
      triggerFlow("trigger.mqtt", { credentialId, topic: `${base}/old` }),
    );
    await listening(t.host, flowId);
    await t.host.flows.saveVersion(
      flowId,
      triggerFlow("trigger.mqtt", { credentialId, topic: `${base}/new/#` }),
    );
    await t.host.control.afterSave(flowId);
    await listening(t.host, flowId);
    await pub.publishAsync(`${base}/new/a/b`, "x", { qos: 1 });
    await until("a run of version 2", () => payloadsOf(t!.host, flowId).length === 1);
    expect((await t.host.runs.list({ flowId })).runs[0]).toMatchObject({ flowVersion: 2 });
    expect(payloadsOf(t.host, flowId)[0]).toMatchObject({ topic: `${base}/new/a/b` });
  });

  it("refuses a filter with a misplaced wildcard when the flow is activated, naming the node and field", async () => {
    t = await startTestHost();
    const { id } = await t.host.flows.create({
      name: "Bad filter",
      definition: triggerFlow("trigger.mqtt", { credentialId: "c", topic: "a/#/b" }),
    });
    await expect(t.host.control.setActive(id, true)).rejects.toThrow(
      'node "in" field "topic": use + for one whole level and # only as the last level, e.g. sensors/+/temperature or sensors/#',
    );
  });
});

describe("trigger.mqtt with a private Mosquitto", { timeout: 60_000 }, () => {
  let broker: PrivateMosquitto;
  beforeAll(async () => {
    broker = await startMosquitto({ users: { sensor: "right-pass" } });
  });
  afterAll(() => broker.stop());

  it("reports the broker's refusal of a wrong password in its health", async () => {
    t = await startTestHost();
    await allowLoopback(t.host);
    const credentialId = await brokerCredential(t.host, "mqtt", {
      port: String(broker.port),
      user: "sensor",
      password: "wrong-pass",
    });
    const flowId = await activate(t.host, triggerFlow("trigger.mqtt", { credentialId, topic: "a/#" }));
    await until("error health", () => t!.host.services.triggers.health(flowId)?.status === "error");
    expect(t.host.services.triggers.health(flowId)?.lastError).toBe(
      `trigger.mqtt: MQTT broker 127.0.0.1:${broker.port} refused the connection: Not authorized`,
    );
  });

  it("shows the lost broker in its health, reconnects when it is back, and runs what arrives then", async () => {
    t = await startTestHost();
    const host = t.host;
    await allowLoopback(host);
    const credentialId = await brokerCredential(host, "mqtt", {
      port: String(broker.port),
      user: "sensor",
      password: "right-pass",
    });
    const flowId = await activate(host, triggerFlow("trigger.mqtt", { credentialId, topic: "plant/#" }));
    await listening(host, flowId);

    await broker.kill();
    await until("error health", () => host.services.triggers.health(flowId)?.status === "error");
    expect(host.services.triggers.health(flowId)?.lastError).toMatch(
      new RegExp(
        `^trigger\\.mqtt: (connection to 127\\.0\\.0\\.1:${broker.port} (closed|lost: .+)|MQTT broker 127\\.0\\.0\\.1:${broker.port} is unreachable: .+)$`,
      ),
    );
    await broker.restart();
    await listening(host, flowId);

    const sender = await mqtt.connectAsync({
      host: "127.0.0.1",
      port: broker.port,
      username: "sensor",
      password: "right-pass",
      clientId: `sy-test-${randomUUID()}`,
    });
    await sender.publishAsync("plant/line-1", '{"ok":true}', { qos: 1 });
    await sender.endAsync();
    await until("a run", () => payloadsOf(host, flowId).length === 1);
    expect(payloadsOf(host, flowId)[0]).toMatchObject({
      topic: "plant/line-1",
      message: { ok: true },
      qos: 1,
    });
  });
});
