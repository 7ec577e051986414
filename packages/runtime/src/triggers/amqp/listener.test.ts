import { randomUUID } from "node:crypto";
import amqp, { type Channel, type ChannelModel } from "amqplib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { allowLoopback, brokerCredential, payloadsOf, triggerFlow, until } from "../../__tests__/broker-host";
import { sqliteOf, startTestHost, waitForRun } from "../../__tests__/test-host";
import type { Host } from "../../host";

// The machine's shared RabbitMQ (guest/guest); every test declares its own queues.
let conn: ChannelModel;
let ch: Channel;
beforeAll(async () => {
  conn = await amqp.connect("amqp://guest:guest@127.0.0.1:5672");
  ch = await conn.createChannel();
});
afterAll(() => conn.close());

let t: Awaited<ReturnType<typeof startTestHost>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const queueName = () => `sy-test-${randomUUID()}`;
const declare = async (q: string) => {
  await ch.assertQueue(q, { durable: true, expires: 120_000 });
  return q;
};

async function start(data: Record<string, string> = {}) {
  t = await startTestHost();
  await allowLoopback(t.host);
  const credentialId = await brokerCredential(t.host, "amqp", {
    port: "5672",
    vhost: "/",
    user: "guest",
    password: "guest",
    ...data,
  });
  return { host: t.host, credentialId };
}

async function activate(host: Host, definition: unknown) {
  const { id } = await host.flows.create({ name: "Orders", definition });
  await host.control.setActive(id, true);
  return id;
}

const consumers = async (q: string) => (await ch.checkQueue(q)).consumerCount;
const waiting = async (q: string) => (await ch.checkQueue(q)).messageCount;

describe("trigger.amqp against the machine's RabbitMQ", { timeout: 60_000 }, () => {
  it("starts one run per message with the agreed payload, and the queue is empty once every run is admitted", async () => {
    const { host, credentialId } = await start();
    const queue = await declare(queueName());
    const flowId = await activate(host, triggerFlow("trigger.amqp", { credentialId, queue }));
    await until("the consumer", async () => (await consumers(queue)) === 1);
    expect(host.services.triggers.health(flowId)).toMatchObject({
      type: "trigger.amqp",
      status: "listening",
    });

    ch.sendToQueue(queue, Buffer.from('{"orderId":42}'), {
      messageId: "order-42",
      persistent: true,
      headers: { source: "shop" },
    });
    ch.sendToQueue(queue, Buffer.from("plain words"), { messageId: "note-1" });
    ch.sendToQueue(queue, Buffer.from("[1,2"), {});
    await until("three runs", () => payloadsOf(host, flowId).length === 3);
    const payloads = payloadsOf(host, flowId).sort((a, b) =>
      String(a.receivedAt).localeCompare(String(b.receivedAt)),
    );
    const common = { exchange: "", routingKey: queue, redelivered: false, receivedAt: expect.any(String) };
    expect(payloads).toEqual(
      expect.arrayContaining([
        { ...common, messageId: "order-42", content: { orderId: 42 }, headers: { source: "shop" } },
        { ...common, messageId: "note-1", content: "plain words", headers: {} },
        // Not JSON, so the text; no message id, so no duplicate check for it.
        { ...common, messageId: "", content: "[1,2", headers: {} },
      ]),
    );
    await until("the queue to drain", async () => (await waiting(queue)) === 0);
    const { runs } = await host.runs.list({ flowId });
    for (const r of runs) expect((await waitForRun(host, r.id)).status).toBe("succeeded");
    expect(runs.every((r) => r.channel === "webhook")).toBe(true);
    expect(host.services.triggers.health(flowId)?.lastEventAt).toMatch(/^\d{4}-/);
  });

  it("recognises a message id it already admitted: the repeat is acknowledged and starts no second run", async () => {
    const { host, credentialId } = await start();
    const queue = await declare(queueName());
    const flowId = await activate(host, triggerFlow("trigger.amqp", { credentialId, queue }));
    await until("the consumer", async () => (await consumers(queue)) === 1);
    ch.sendToQueue(queue, Buffer.from('{"n":1}'), { messageId: "same-id" });
    await until("the first run", () => payloadsOf(host, flowId).length === 1);
    ch.sendToQueue(queue, Buffer.from('{"n":2}'), { messageId: "same-id" });
    ch.sendToQueue(queue, Buffer.from('{"n":3}'), { messageId: "other-id" });
    await until("the other message's run", () => payloadsOf(host, flowId).length === 2);
    await until("the queue to drain", async () => (await waiting(queue)) === 0);
    expect(payloadsOf(host, flowId).map((p) => [p.messageId, p.content])).toEqual([
      ["same-id", { n: 1 }],
      ["other-id", { n: 3 }],
    ]);
  });

  it("unbinds on deactivation and moves to the new queue on an edit", async () => {
    const { host, credentialId } = await start();
    const first = await declare(queueName());
    const second = await declare(queueName());
    const flowId = await activate(host, triggerFlow("trigger.amqp", { credentialId, queue: first }));
    await until("the consumer", async () => (await consumers(first)) === 1);

    await host.flows.saveVersion(flowId, triggerFlow("trigger.amqp", { credentialId, queue: second }));
    await host.control.afterSave(flowId);
    await until("the move", async () => (await consumers(first)) === 0 && (await consumers(second)) === 1);
    ch.sendToQueue(second, Buffer.from("v2"), { messageId: "m-v2" });
    await until("a run of version 2", () => payloadsOf(host, flowId).length === 1);
    expect((await host.runs.list({ flowId })).runs[0]).toMatchObject({ flowVersion: 2 });

    await host.control.setActive(flowId, false);
    await until("no consumer", async () => (await consumers(second)) === 0);
    expect(host.services.triggers.health(flowId)).toBeUndefined();
    ch.sendToQueue(second, Buffer.from("after"), { messageId: "m-after" });
    await until("the message to wait in the queue", async () => (await waiting(second)) === 1);
    expect(payloadsOf(host, flowId)).toHaveLength(1);
  });

  it("gives a message whose run cannot be admitted back to the queue, and says why in its health", async () => {
    const { host, credentialId } = await start();
    const queue = await declare(queueName());
    const flowId = await activate(host, triggerFlow("trigger.amqp", { credentialId, queue }));
    await until("the consumer", async () => (await consumers(queue)) === 1);
    // The flow's row disappears behind the host's back: the run has no flow to belong to.
    sqliteOf(host).prepare(`DELETE FROM "Flow" WHERE id = ?`).run(flowId);
    ch.sendToQueue(queue, Buffer.from("{}"), { messageId: "orphan-1", persistent: true });
    await until("error health", () => host.services.triggers.health(flowId)?.status === "error");
    expect(host.services.triggers.health(flowId)?.lastError).toMatch(
      /^trigger\.amqp: message orphan-1 not admitted, returned to the queue: .*FOREIGN KEY/,
    );
    // Unbound, the consumer goes away and the message waits in the queue: nothing was acknowledged.
    host.services.triggers.unbind(flowId);
    await until("no consumer", async () => (await consumers(queue)) === 0);
    await until("the message back in the queue", async () => (await waiting(queue)) === 1);
  });

  it("reports a missing queue in its health, and listens once the queue exists (reconnecting with backoff)", async () => {
    const { host, credentialId } = await start();
    const queue = queueName();
    const flowId = await activate(host, triggerFlow("trigger.amqp", { credentialId, queue }));
    await until("error health", () => host.services.triggers.health(flowId)?.status === "error");
    expect(host.services.triggers.health(flowId)).toMatchObject({
      status: "error",
      lastError: `trigger.amqp: queue "${queue}" on 127.0.0.1:5672: NOT_FOUND - no queue '${queue}' in vhost '/'`,
    });
    await declare(queue);
    await until("listening", () => host.services.triggers.health(flowId)?.status === "listening");
    expect(await consumers(queue)).toBe(1);
  });

  it("reports the broker's refusal of a wrong password in its health", async () => {
    const { host, credentialId } = await start({ password: "wrong" });
    const queue = await declare(queueName());
    const flowId = await activate(host, triggerFlow("trigger.amqp", { credentialId, queue }));
    await until("error health", () => host.services.triggers.health(flowId)?.status === "error");
    expect(host.services.triggers.health(flowId)?.lastError).toBe(
      "trigger.amqp: AMQP broker 127.0.0.1:5672 refused the connection: ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile.",
    );
  });

  it("reports an address the outbound guard refuses, and never connects", async () => {
    const { host, credentialId } = await start();
    await host.settings.set("http.allowHosts", []);
    await host.services.reloadHttp();
    const queue = await declare(queueName());
    const flowId = await activate(host, triggerFlow("trigger.amqp", { credentialId, queue }));
    await until("error health", () => host.services.triggers.health(flowId)?.status === "error");
    expect(host.services.triggers.health(flowId)?.lastError).toBe(
      "trigger.amqp: request to amqp://127.0.0.1:5672 refused: 127.0.0.1 is a loopback address",
    );
    expect(await consumers(queue)).toBe(0);
  });
});
